package dev.workingmemory.benchmarks;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.benchmarks.BeamData.Chat;
import dev.workingmemory.benchmarks.BeamData.Message;
import dev.workingmemory.benchmarks.BeamData.Question;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Long-term recall on BEAM (issue 20): does {@code memory_search} find the messages that answer a probing question
 * about a long chat in which a user builds a project with an assistant (long messages: plans, code, logs)?
 *
 * <p>Each chat's messages go in order through the {@code WorkingChatMemory} of a default {@link WorkingMemoryProvider}
 * (the user's as user messages, the assistant's as AI messages), the provider's clock at the chat's time anchors
 * ({@link BeamData}). Then each question with evidence (abstention questions have none) is searched exactly as the
 * {@code memory_search} tool does with {@code limit=10}: {@link WorkingMemory#search(String, int)}, within the
 * provider's 600-token budget. An evidence message is <b>found</b> when a returned hit holds part of it: a run of
 * {@value #PART_CHARS} characters of its text (white space folded) is in the hit (the reading). With
 * {@code --distinct-runs}, only a run no other message of the chat holds counts ({@link MessageParts}): BEAM's user
 * messages often open alike, and a run they share counts a message found for a hit of another — sometimes one that
 * says the same thing, sometimes only the same opening words. <b>recall_all@10</b> is the share of
 * questions whose evidence messages were all found, <b>recall_any@10</b> those with one at least, <b>tokens@10</b> the
 * mean of the returned texts' tokens (the provider's estimate); <b>update_first</b>, over the knowledge-update
 * questions, the share where a message with the new value is found and ranks above every message with the old value
 * that is found (if any); a message the data names for both values counts for the new one only, and a question left
 * without an old one cannot be ordered and is left out of update_first (their number is printed). Evidence still in
 * the window at the end counts as not found.
 *
 * <p>{@code --baseline} measures the same questions, with the same matching, on {@link NaivePassages} instead of the
 * memory: the naive baseline, for ratios of one run.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.workingmemory.benchmarks.BeamRecall [--data DIR]
 * [--baseline] [--chats 1,2,5] [--quantized | --bge] [--embedding-cache FILE] [--distinct-runs] [--feedback W]
 * [--ended]} ({@code --ended}: as {@link LocomoRecall}'s, each chat's questions asked from a new conversation of its
 * user once the chat ended; {@code --feedback}: the crystal store's {@link CrystalRanking#feedbackWeight()}, 0 for none). Without {@code --data}, the
 * first ancestor of the working directory holding {@code shared/bench/beam} is used; when there is none, the run is
 * skipped with a message. {@code --quantized} embeds with the quantized all-MiniLM-L6-v2, {@code --bge} with the
 * quantized bge-small-en-v1.5 (the provider's default model is all-MiniLM-L6-v2); {@code --embedding-cache}
 * keeps the vectors in a file to run again faster (recall only: never time such a run). The last line printed is
 * {@code beam: recall_all@10=<x> recall_any@10=<y> tokens@10=<z> questions=<n> update_first=<u>}.
 */
public final class BeamRecall {

    static final String DEFAULT_DATA = "shared/bench/beam";
    static final int LIMIT = 10;
    static final int TOKEN_BUDGET = 600;
    /** How long a run of a message's text a hit must hold for the message to count as found. */
    static final int PART_CHARS = 50;

    private BeamRecall() {
    }

    public static void main(String[] args) throws IOException {
        Path data = null;
        boolean baseline = false;
        boolean distinct = false;
        boolean ended = false;
        boolean quantized = false;
        boolean bge = false;
        CrystalRanking ranking = null;
        Path cache = null;
        List<Integer> chats = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--data") && i + 1 < args.length) {
                data = Path.of(args[++i]);
            } else if (args[i].equals("--baseline")) {
                baseline = true;
            } else if (args[i].equals("--ended")) {
                ended = true;
            } else if (args[i].equals("--distinct-runs")) {
                distinct = true;
            } else if (args[i].equals("--quantized")) {
                quantized = true;
            } else if (args[i].equals("--bge")) {
                bge = true;
            } else if (args[i].equals("--embedding-cache") && i + 1 < args.length) {
                cache = Path.of(args[++i]);
            } else if (args[i].equals("--feedback") && i + 1 < args.length) {
                ranking = withFeedback(null, Double.parseDouble(args[++i]));
            } else if (args[i].equals("--chats") && i + 1 < args.length) {
                Arrays.stream(args[++i].split(",")).map(String::strip).map(Integer::parseInt).forEach(chats::add);
            } else {
                System.err.println("Usage: BeamRecall [--data DIR] [--baseline] [--chats 1,2,5] [--quantized | --bge]"
                        + " [--embedding-cache FILE] [--distinct-runs] [--feedback W] [--ended]   (unknown argument: "
                        + args[i]
                        + ")");
                System.exit(2);
            }
        }
        if (data == null) {
            data = LocomoRecall.ancestorHolding(Path.of("").toAbsolutePath(), DEFAULT_DATA);
        }
        if (data == null || !Files.isDirectory(data)) {
            System.out.println("beam: skipped, no BEAM data at " + (data != null ? data : "any ancestor's "
                    + DEFAULT_DATA) + " (pass --data DIR, a folder of numbered chat folders)");
            return;
        }
        EmbeddingModel model = model(quantized, bge && !baseline);
        try (CachedEmbeddingModel cached = cache == null ? null : new CachedEmbeddingModel(model, cache)) {
            run(BeamData.read(data, chats), baseline, cached != null ? cached : model, quantized, distinct, ranking,
                    ended, System.out);
        }
    }

    /**
     * @return what a recall run embeds with: all-MiniLM-L6-v2 (the provider's default, and the naive baseline's), its
     *         quantized form, or the quantized bge-small-en-v1.5 (measured as a default, not one)
     */
    static EmbeddingModel model(boolean quantized, boolean bge) {
        return quantized ? new AllMiniLmL6V2QuantizedEmbeddingModel()
                : bge ? new BgeSmallEnV15QuantizedEmbeddingModel() : new AllMiniLmL6V2EmbeddingModel();
    }

    /** @return {@code ranking} (the defaults when null) with {@code feedbackWeight} */
    static CrystalRanking withFeedback(CrystalRanking ranking, double feedbackWeight) {
        CrystalRanking base = ranking != null ? ranking : CrystalRanking.defaults();
        return new CrystalRanking(base.keywordWeight(), base.vectorWeight(), base.contextWeight(), base.candidates(),
                feedbackWeight);
    }

    /** @param ranking the crystal store's ranking; null for the default provider's own store */
    static void run(List<Chat> chats, boolean baseline, EmbeddingModel model, boolean quantized, boolean distinct,
                    CrystalRanking ranking, boolean ended, PrintStream out) throws IOException {
        out.printf("BEAM: %d chats (%s), %d messages, %d questions with evidence; %s%s%s%n", chats.size(),
                String.join(",", chats.stream().map(Chat::name).toList()),
                chats.stream().mapToInt(chat -> chat.messages().size()).sum(),
                chats.stream().mapToInt(chat -> chat.questions().size()).sum(),
                baseline ? "naive baseline (" + NaivePassages.PASSAGE_CHARS + "-char passages, BM25 + MiniLM, RRF)"
                        : "default WorkingMemoryProvider", quantized ? ", quantized MiniLM" : "",
                distinct ? "; found by runs no other message holds" : "");
        RecallTally total = new RecallTally();
        Map<String, RecallTally> kinds = new TreeMap<>();
        int inWindow = 0;
        int unordered = 0;
        int bothValues = 0;
        int oldMarked = 0;
        long feedNanos = 0;
        int messages = 0;
        List<Long> searchNanos = new ArrayList<>();
        LocomoRecall.SessionClock clock = new LocomoRecall.SessionClock();
        CrystalStore crystals = baseline || ranking == null ? null
                : EmbeddedCrystalStore.builder().ranking(ranking).embeddingModel(model).build();
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().clock(clock);
        if (crystals != null) {
            builder.crystalStore(crystals);
        } else {
            builder.embeddingModel(model);
        }
        if (ended) {
            builder.maxCachedMemories(1); // loading the asking conversation unloads the chat that ended
        }
        try (crystals; WorkingMemoryProvider provider = baseline ? null : builder.build()) {
            for (Chat chat : chats) {
                long start = System.nanoTime();
                Searcher searcher;
                List<String> window = List.of();
                if (baseline) {
                    NaivePassages passages = new NaivePassages(model);
                    passages.index(chat.messages().stream().map(Message::text).toList());
                    searcher = question -> passages.search(question, LIMIT, TOKEN_BUDGET).stream()
                            .map(text -> new Hit(text, NaivePassages.tokens(text), false)).toList();
                } else {
                    ChatMemory memory = provider.get("beam-" + chat.name());
                    for (Message message : chat.messages()) {
                        clock.set(message.time());
                        memory.add(message.user() ? UserMessage.from(message.text()) : AiMessage.from(message.text()));
                    }
                    window = memory.messages().stream().map(LocomoRecall::textOf).toList();
                    WorkingMemory working = ended ? provider.memory(MemoryKey.of("beam-" + chat.name(), "later"))
                            : provider.memory("beam-" + chat.name());
                    LocomoRecall.awaitIndexed(provider);
                    searcher = question -> working.search(question, LIMIT).stream()
                            .map(hit -> new Hit(hit.text(), hit.tokens(), hit.earlierThan() != null)).toList();
                }
                long fed = System.nanoTime() - start;
                feedNanos += fed;
                messages += chat.messages().size();
                Map<Integer, Message> byId = chat.byId();
                MessageParts parts = new MessageParts(chat.messages(), distinct);
                RecallTally tally = new RecallTally();
                for (Question question : chat.questions()) {
                    long before = System.nanoTime();
                    List<Hit> hits = searcher.search(question.text());
                    searchNanos.add(System.nanoTime() - before);
                    List<String> folded = hits.stream().map(hit -> folded(hit.text())).toList();
                    int found = 0;
                    boolean windowed = false;
                    for (int id : question.evidence()) {
                        Message message = byId.get(id);
                        if (message == null) {
                            continue; // counted as not found
                        }
                        if (rank(folded, parts.of(message)) >= 0) {
                            found++;
                        }
                        windowed |= window.contains(message.text());
                    }
                    inWindow += windowed ? 1 : 0;
                    Boolean updateFirst = null;
                    if (!question.updated().isEmpty() && !question.original().isEmpty()) {
                        List<Integer> olds = question.original().stream()
                                .filter(id -> !question.updated().contains(id)).toList();
                        if (olds.isEmpty()) {
                            unordered++;
                        } else {
                            int updated = best(folded, question.updated(), byId, parts);
                            int original = best(folded, olds, byId, parts);
                            updateFirst = updated >= 0 && (original < 0 || updated < original);
                            if (updated >= 0 && original >= 0) {
                                bothValues++;
                                oldMarked += hits.get(original).markedEarlier() ? 1 : 0;
                            }
                        }
                    }
                    int tokens = hits.stream().mapToInt(Hit::tokens).sum();
                    boolean marked = hits.stream().anyMatch(Hit::markedEarlier);
                    tally.add(found, question.evidence().size(), tokens, marked, updateFirst);
                    kinds.computeIfAbsent(question.kind(), kind -> new RecallTally())
                            .add(found, question.evidence().size(), tokens, marked, updateFirst);
                }
                total.add(tally);
                out.printf("chat %s: %d messages fed and indexed in %.1f s; %s%n", chat.name(),
                        chat.messages().size(), fed / 1e9, tally);
            }
        }
        for (Map.Entry<String, RecallTally> kind : kinds.entrySet()) {
            out.printf("%s: %s%n", kind.getKey(), kind.getValue());
        }
        out.printf("questions with evidence still in the window at the end (%s): %d%n",
                ended ? "searchable since the conversation ended" : "not searchable", inWindow);
        out.printf("knowledge updates whose new and old values the data puts in one message (left out of"
                + " update_first): %d%n", unordered);
        out.printf("feeding and indexing: %.1f ms per message; search p50 %.1f ms, p95 %.1f ms%n",
                feedNanos / 1e6 / Math.max(1, messages), LocomoRecall.percentile(searchNanos, 50) / 1e6,
                LocomoRecall.percentile(searchNanos, 95) / 1e6);
        out.printf("questions with a hit marked earlier than another: %.2f; knowledge updates with both values among"
                + " the hits: %d, the old value's marked earlier in %d%n", total.marked(), bothValues, oldMarked);
        out.printf("beam: recall_all@10=%.3f recall_any@10=%.3f tokens@10=%.0f questions=%d update_first=%.2f%n",
                total.all(), total.any(), total.tokens(), total.questions, total.updateFirst());
    }

    /** @return the best rank of a hit holding one of the messages, or -1 */
    private static int best(List<String> folded, List<Integer> ids, Map<Integer, Message> byId, MessageParts parts) {
        int best = -1;
        for (int id : ids) {
            Message message = byId.get(id);
            int rank = message == null ? -1 : rank(folded, parts.of(message));
            if (rank >= 0 && (best < 0 || rank < best)) {
                best = rank;
            }
        }
        return best;
    }

    /** @return the rank of the first hit holding one of a message's parts ({@link MessageParts#of}), or -1 */
    static int rank(List<String> foldedHits, List<String> parts) {
        for (int rank = 0; rank < foldedHits.size(); rank++) {
            String hit = foldedHits.get(rank);
            for (String part : parts) {
                if (hit.contains(part)) {
                    return rank;
                }
            }
        }
        return -1;
    }

    /**
     * The parts of a chat's messages by which a hit is taken to hold them: runs of {@value #PART_CHARS} characters of a
     * message's folded text, every half run (a hit holding 1.5 runs of the text holds one whole), the whole text when
     * shorter; when distinct, only the ones no other message of the chat holds (a message with none of its own, a copy
     * of another, keeps them all).
     */
    static final class MessageParts {
        private static final int SHARED = -1;
        /** Every run of the chat's folded texts, at every offset, with the message holding it or {@link #SHARED}. */
        private final Map<String, Integer> holder = new HashMap<>();

        private final boolean distinct;

        MessageParts(List<Message> messages, boolean distinct) {
            this.distinct = distinct;
            for (Message message : distinct ? messages : List.<Message>of()) {
                String text = folded(message.text());
                for (int from = 0; from + PART_CHARS <= text.length(); from++) {
                    holder.merge(text.substring(from, from + PART_CHARS), message.id(),
                            (one, other) -> one.equals(other) ? one : SHARED);
                }
            }
        }

        List<String> of(Message message) {
            String text = folded(message.text());
            if (text.length() <= PART_CHARS) {
                return List.of(text); // a whole short message: as distinctive as it gets
            }
            List<String> parts = new ArrayList<>();
            for (int from = 0; from + PART_CHARS <= text.length(); from += PART_CHARS / 2) {
                parts.add(text.substring(from, from + PART_CHARS));
            }
            parts.add(text.substring(text.length() - PART_CHARS));
            if (!distinct) {
                return parts;
            }
            List<String> own = parts.stream().filter(part -> holder.get(part) == message.id()).toList();
            return own.isEmpty() ? parts : own;
        }
    }

    /** White space folded as past turns fold it, so that a text is found in the hit that holds it. */
    static String folded(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }

    private record Hit(String text, int tokens, boolean markedEarlier) {
    }

    private interface Searcher {
        List<Hit> search(String question) throws IOException;
    }
}
