package dev.workingmemory.benchmarks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.internal.VectorModel;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An {@link EmbeddingModel} that remembers what another one computed, in a file, so that a recall harness run again
 * (another ranking, another choice among candidates) embeds only the texts it did not embed before. The vectors are
 * the model's own, so recall figures are those of the model; embedding time is not (never time a run with a cache).
 * The file holds one model's vectors: name it after the model.
 *
 * <p>Thread-safe.
 */
final class CachedEmbeddingModel implements EmbeddingModel, AutoCloseable {

    private final EmbeddingModel model;
    private final Path file;
    private final Map<String, float[]> cache = new ConcurrentHashMap<>();
    private final Map<String, float[]> added = new ConcurrentHashMap<>();

    CachedEmbeddingModel(EmbeddingModel model, Path file) throws IOException {
        this.model = model;
        this.file = file;
        if (Files.isRegularFile(file)) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
                while (true) {
                    String key;
                    try {
                        key = in.readUTF();
                    } catch (EOFException end) {
                        break;
                    }
                    float[] vector = new float[in.readInt()];
                    for (int i = 0; i < vector.length; i++) {
                        vector[i] = in.readFloat();
                    }
                    cache.put(key, vector);
                }
            }
        }
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        List<Embedding> embeddings = new ArrayList<>(segments.size());
        List<TextSegment> missing = new ArrayList<>();
        List<String> keys = new ArrayList<>(segments.size());
        for (TextSegment segment : segments) {
            String key = key(segment.text());
            keys.add(key);
            if (!cache.containsKey(key)) {
                missing.add(segment);
            }
        }
        if (!missing.isEmpty()) {
            List<Embedding> computed = model.embedAll(missing).content();
            for (int i = 0; i < missing.size(); i++) {
                String key = key(missing.get(i).text());
                cache.put(key, computed.get(i).vector());
                added.put(key, computed.get(i).vector());
            }
        }
        for (String key : keys) {
            embeddings.add(Embedding.from(cache.get(key)));
        }
        return Response.from(embeddings);
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    /** The cached model's: a store sees the same vectors as the model's own. */
    @Override
    public String modelName() {
        return VectorModel.nameOf(model);
    }

    private static String key(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Appends the vectors computed since the file was read. */
    @Override
    public void close() {
        if (added.isEmpty()) {
            return;
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)))) {
                for (Map.Entry<String, float[]> entry : added.entrySet()) {
                    out.writeUTF(entry.getKey());
                    out.writeInt(entry.getValue().length);
                    for (float value : entry.getValue()) {
                        out.writeFloat(value);
                    }
                }
            }
            added.clear();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
