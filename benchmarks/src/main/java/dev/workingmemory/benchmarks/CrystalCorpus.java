package dev.workingmemory.benchmarks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.internal.VectorModel;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The crystals of the crystal benchmarks: generated conversation turns, all distinct, and questions about them,
 * with their all-MiniLM-L6-v2 embeddings cached in a file (embedding 20,000 texts takes minutes on two cores).
 *
 * <p>Text {@code i} picks a speaker, an activity, a place, a companion, an outcome and a day by the digits of
 * {@code i · 1,000,003} (a permutation) in a mixed radix, so the first 77 million texts are all different and read
 * like the turns of a chat about one's life ("Maria: I went kayaking at the harbour with my neighbour on Sunday and lost my blue
 * thermos."). Questions are made the same way from other digits and never copy a whole text.
 */
final class CrystalCorpus {

    private static final String[] SPEAKERS = {"Maria", "John", "Aiko", "Omar", "Lena", "Carlos", "Priya", "Tom",
            "Fatima", "Igor", "Chen", "Sara", "Kwame", "Nina", "Paolo", "Grace", "Dev", "Hana", "Luca", "Zoe",
            "Ravi", "Emma", "Yusuf", "Ines", "Mateo", "Freya", "Kenji", "Amara", "Oscar", "Leila"};
    private static final String[] ACTIVITIES = {"went kayaking", "started a pottery class", "ran a half marathon",
            "baked sourdough bread", "painted a mural", "adopted a rescue dog", "fixed an old bicycle",
            "planted tomatoes", "learned to play the violin", "joined a chess club", "visited my grandmother",
            "volunteered at a shelter", "watched a meteor shower", "built a treehouse", "went to a jazz concert",
            "tried rock climbing", "wrote a short story", "cooked a Thai curry", "went bird watching",
            "repaired the kitchen sink", "organised a book swap", "took a photography workshop",
            "hiked up a volcano", "went to a job interview", "moved into a new flat", "went skiing",
            "sewed a quilt", "coached a kids football team"};
    private static final String[] PLACES = {"at the harbour", "in the old town", "near the lake", "at the community "
            + "centre", "in the mountains", "at the library", "on the beach", "in my backyard", "at the museum",
            "in the city park", "at the farmers market", "in a small village", "at the university", "on the island",
            "in the forest", "at the stadium", "at my cousin's house", "in the studio", "at the train station",
            "in the desert", "at the botanical garden", "on a rooftop", "at the marina", "in the countryside"};
    private static final String[] COMPANIONS = {"with my neighbour", "with my sister", "with two colleagues",
            "with my best friend", "alone", "with my kids", "with my partner", "with an old classmate",
            "with my dad", "with a group of strangers", "with my mentor", "with the twins from next door",
            "with my aunt", "with my roommate", "with our dog", "with a tour guide", "with my brother",
            "with the book club", "with my grandparents", "with a new friend"};
    private static final String[] OUTCOMES = {"and lost my blue thermos", "and it rained the whole time",
            "and met a famous chef", "and finally felt proud of myself", "and got a terrible sunburn",
            "and found a lost wallet", "and it reminded me of childhood", "and we laughed for hours",
            "and I twisted my ankle", "and won a small prize", "and saw a rainbow", "and forgot my keys there",
            "and took two hundred photos", "and decided to do it every month", "and spilled coffee on my notes",
            "and got inspired for a new project"};
    private static final String[] DAYS = {"on Monday", "on Tuesday", "on Wednesday", "last Thursday", "on Friday",
            "on Saturday", "on Sunday", "last weekend", "yesterday", "two weeks ago", "in early May",
            "on my birthday"};
    private static final String[] QUESTIONS = {"When did %s go %s?", "Who was with %s %s?",
            "What happened when %s was %s?", "Where did %s do something %s?", "What did %s say about %s?"};

    static final Instant START = Instant.parse("2023-05-08T13:56:00Z");

    private CrystalCorpus() {
    }

    /** @return how many distinct texts {@link #text} makes */
    static long distinctTexts() {
        return (long) SPEAKERS.length * ACTIVITIES.length * PLACES.length * COMPANIONS.length * OUTCOMES.length
                * DAYS.length;
    }

    /** The {@code i}-th text: different for every {@code i} below {@link #distinctTexts()}. */
    static String text(int i) {
        // a multiplier prime to every radix permutes the combinations, so neighbouring texts differ everywhere
        long n = Math.floorMod(i * 1_000_003L, distinctTexts());
        String speaker = SPEAKERS[(int) (n % SPEAKERS.length)];
        n /= SPEAKERS.length;
        String activity = ACTIVITIES[(int) (n % ACTIVITIES.length)];
        n /= ACTIVITIES.length;
        String place = PLACES[(int) (n % PLACES.length)];
        n /= PLACES.length;
        String companion = COMPANIONS[(int) (n % COMPANIONS.length)];
        n /= COMPANIONS.length;
        String outcome = OUTCOMES[(int) (n % OUTCOMES.length)];
        n /= OUTCOMES.length;
        String day = DAYS[(int) (n % DAYS.length)];
        return speaker + ": I " + activity + " " + place + " " + companion + " " + day + " " + outcome + ".";
    }

    /** The {@code i}-th question. */
    static String question(int i) {
        String speaker = SPEAKERS[(i * 7) % SPEAKERS.length];
        String template = QUESTIONS[i % QUESTIONS.length];
        String detail = switch (i % QUESTIONS.length) {
            case 0 -> ACTIVITIES[(i * 3) % ACTIVITIES.length].replaceFirst("^(went |started |ran |tried )", "");
            case 1, 3 -> PLACES[(i * 5) % PLACES.length];
            default -> DAYS[(i * 11) % DAYS.length];
        };
        return String.format(template, speaker, detail);
    }

    /**
     * Crystal {@code i} of a scope: text {@code textIndex}, one minute after the previous one, with the texts before
     * and after it as its context (as a past turn has its neighbouring turns).
     */
    static Crystal crystal(String scope, int i, int textIndex) {
        return new Crystal(scope + "-" + i, scope, CrystalKind.TURN, START.plusSeconds(60L * i), 0.5, List.of(),
                text(textIndex), "message:" + i, text(textIndex - 1) + "\n" + text(textIndex + 1));
    }

    /**
     * The MiniLM embeddings of texts {@code 0 … count-1}, read from {@code file} or computed and written there.
     */
    static float[][] embeddings(Path file, int count, EmbeddingModel model) throws IOException {
        if (Files.exists(file)) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
                int stored = in.readInt();
                int dimension = in.readInt();
                if (stored == count) {
                    float[][] vectors = new float[count][dimension];
                    for (float[] vector : vectors) {
                        for (int d = 0; d < dimension; d++) {
                            vector[d] = in.readFloat();
                        }
                    }
                    return vectors;
                }
            }
        }
        System.err.printf("Embedding %,d texts with all-MiniLM-L6-v2 into %s (once; minutes on two cores)%n", count, file);
        float[][] vectors = new float[count][];
        long start = System.nanoTime();
        for (int from = 0; from < count; from += 64) {
            List<TextSegment> segments = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 64); i++) {
                segments.add(TextSegment.from(text(i)));
            }
            List<Embedding> embedded = model.embedAll(segments).content();
            for (int i = 0; i < embedded.size(); i++) {
                vectors[from + i] = embedded.get(i).vector();
            }
            if ((from / 64) % 50 == 0) {
                System.err.printf("  %,d / %,d after %d s%n", from, count, (System.nanoTime() - start) / 1_000_000_000);
            }
        }
        Files.createDirectories(file.getParent());
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(temp)))) {
            out.writeInt(count);
            out.writeInt(vectors[0].length);
            for (float[] vector : vectors) {
                for (float value : vector) {
                    out.writeFloat(value);
                }
            }
        }
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return vectors;
    }

    /**
     * An embedding model that answers the corpus texts from their cached MiniLM vectors and embeds anything else
     * (the queries) with the real model. A crystal is embedded as its text followed by its context on new lines:
     * the vector of its first line (its own text) stands in for it, so that the cache holds one vector per text.
     */
    static EmbeddingModel precomputed(float[][] vectors, EmbeddingModel model) {
        Map<String, float[]> byText = new HashMap<>(vectors.length * 2);
        for (int i = 0; i < vectors.length; i++) {
            byText.put(text(i), vectors[i]);
        }
        return new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                List<Embedding> embeddings = new ArrayList<>(segments.size());
                for (TextSegment segment : segments) {
                    String text = segment.text();
                    int newline = text.indexOf('\n');
                    float[] vector = byText.get(newline < 0 ? text : text.substring(0, newline));
                    embeddings.add(vector != null ? Embedding.from(vector) : model.embed(segment).content());
                }
                return Response.from(embeddings);
            }

            @Override
            public int dimension() {
                return model.dimension();
            }

            /** The model whose vectors these are: an index built with it is not embedded again. */
            @Override
            public String modelName() {
                return VectorModel.nameOf(model);
            }
        };
    }

    static EmbeddingModel miniLm() {
        return new AllMiniLmL6V2EmbeddingModel();
    }
}
