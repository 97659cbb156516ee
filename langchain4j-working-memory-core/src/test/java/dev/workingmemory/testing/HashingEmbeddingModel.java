package dev.workingmemory.testing;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Words hashed into 64 dimensions: fast, so that hundreds of crystals embed in no time, for tests whose findings do
 * not depend on the quality of the vectors (the size of a dream's input, whose crystals a scope holds). Thread-safe
 * (stateless).
 */
public final class HashingEmbeddingModel implements EmbeddingModel {

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        List<Embedding> embeddings = new ArrayList<>(segments.size());
        for (TextSegment segment : segments) {
            float[] vector = new float[64];
            for (String word : segment.text().toLowerCase(Locale.ROOT).split("\\W+")) {
                vector[Math.floorMod(word.hashCode(), 64)] += 1;
            }
            vector[0] += 0.01f; // never the zero vector
            double norm = 0;
            for (float value : vector) {
                norm += value * value;
            }
            for (int i = 0; i < vector.length; i++) {
                vector[i] /= (float) Math.sqrt(norm);
            }
            embeddings.add(Embedding.from(vector));
        }
        return Response.from(embeddings);
    }

    @Override
    public int dimension() {
        return 64;
    }
}
