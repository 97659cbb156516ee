package dev.workingmemory.benchmarks;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.benchmarks.LocomoData.Conversation;
import dev.workingmemory.benchmarks.LocomoData.Question;
import dev.workingmemory.benchmarks.LocomoData.Session;
import dev.workingmemory.benchmarks.LocomoData.Turn;
import dev.workingmemory.crystal.CrystalRanking;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.jdbc.JdbcCrystalStore;
import dev.workingmemory.jdbc.JdbcWorkingMemoryStore;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Long-term recall on LoCoMo (issue 10): does {@code memory_search} find the turns that answer a question about a
 * conversation long gone from the window?
 *
 * <p>For each conversation, every session's turns go through a {@code WorkingChatMemory} of a default
 * {@link WorkingMemoryProvider} (window of 20 messages, in-memory stores, MiniLM embeddings) as messages: the first
 * speaker as the user, the other as the assistant, each text written as {@code "<name>: <text>"}, the provider's clock
 * at the session's date (plus 30 seconds per turn). Old turns leave the window and become crystals of past turns.
 * Then each question of categories 1–4 is searched exactly as the {@code memory_search} tool does with
 * {@code limit=10}: {@link WorkingMemory#search(String, int)}, the provider's 600-token budget included. A question's
 * evidence turn is found when its text is in a returned crystal; <b>recall_all@10</b> counts the questions whose
 * evidence turns were all found, <b>recall_any@10</b> those with at least one; <b>tokens@10</b> is the mean of the
 * returned texts' tokens (the provider's estimate, a token per four characters). Evidence still in the window at the
 * end (never a crystal) counts as not found; how many questions have some is printed, with recall_all@10 counting
 * the window's turns as found too (the model reads them beside the hits), which the goals are not measured by.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.workingmemory.benchmarks.LocomoRecall [--data PATH]
 * [--candidates N] [--feedback W] [--conversations conv-26,conv-30] [--quantized | --bge] [--embedding-cache FILE]
 * [--store embedded|jdbc] [--jdbc-url URL] [--embedding-store in-memory] [--baseline] [--ended]} ({@code --ended}: each
 * conversation's questions are asked from a new conversation of its user after it ended, its memory unloaded: what
 * its window held then is searchable too; {@code --baseline}: {@link BeamRecall}'s naive
 * baseline, {@link NaivePassages}, on every turn of each conversation instead of the memory, same questions and
 * matching; {@code --candidates}: per list, {@link CrystalRanking#candidates()};
 * default 30; {@code --feedback}: {@link CrystalRanking#feedbackWeight()}, 0 for none; {@code --conversations}: only these, e.g. to hold some out; {@code --quantized}: the quantized
 * all-MiniLM-L6-v2; {@code --bge}: the quantized bge-small-en-v1.5; {@code --embedding-cache}: vectors kept in a
 * file to run again faster, for recall only: never time such a run). {@code --store jdbc} gives the provider nothing but
 * {@code store(new JdbcWorkingMemoryStore(dataSource))} on a fresh schema of the database at {@code --jdbc-url}
 * (dropped at the end); {@code --embedding-store in-memory} also gives it {@code embeddingStore(new
 * InMemoryEmbeddingStore<>())}, as an application with a vector store of its own would.
 * Without {@code --data}, the first ancestor of the working directory holding
 * {@code shared/bench/locomo/locomo-dev.json} is used (the repository root's parent); when there is none, the run is
 * skipped with a message. The data is read in place, never copied. The last line printed is
 * {@code locomo: recall_all@10=<x> recall_any@10=<y> tokens@10=<z> questions=<n>}.
 */
public final class LocomoRecall {

    static final String DEFAULT_DATA = "shared/bench/locomo/locomo-dev.json";
    private static final int LIMIT = 10;
    static final long SECONDS_PER_TURN = 30;

    private LocomoRecall() {
    }

    /** Which store the provider is given. */
    enum Store {
        /** None: the provider's default (its crystals in memory, embedded store). */
        EMBEDDED,
        /** {@code store(new JdbcWorkingMemoryStore(dataSource))} on a fresh schema. */
        JDBC
    }

    public static void main(String[] args) throws IOException, SQLException {
        Path data = null;
        CrystalRanking ranking = null;
        boolean quantized = false;
        boolean bge = false;
        Path cache = null;
        Set<String> only = new HashSet<>();
        Store store = Store.EMBEDDED;
        String jdbcUrl = System.getProperty(BenchDatabase.URL_PROPERTY);
        boolean inMemoryVectors = false;
        boolean baseline = false;
        boolean ended = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--data") && i + 1 < args.length) {
                data = Path.of(args[++i]);
            } else if (args[i].equals("--quantized")) {
                quantized = true;
            } else if (args[i].equals("--bge")) {
                bge = true;
            } else if (args[i].equals("--ended")) {
                ended = true;
            } else if (args[i].equals("--baseline")) {
                baseline = true;
            } else if (args[i].equals("--embedding-cache") && i + 1 < args.length) {
                cache = Path.of(args[++i]);
            } else if (args[i].equals("--conversations") && i + 1 < args.length) {
                only.addAll(Arrays.asList(args[++i].split(",")));
            } else if (args[i].equals("--candidates") && i + 1 < args.length) {
                CrystalRanking base = ranking != null ? ranking : CrystalRanking.defaults();
                ranking = new CrystalRanking(base.keywordWeight(), base.vectorWeight(), base.contextWeight(),
                        Integer.parseInt(args[++i]), base.feedbackWeight());
            } else if (args[i].equals("--feedback") && i + 1 < args.length) {
                ranking = BeamRecall.withFeedback(ranking, Double.parseDouble(args[++i]));
            } else if (args[i].equals("--store") && i + 1 < args.length) {
                store = Store.valueOf(args[++i].toUpperCase(Locale.ROOT));
            } else if (args[i].equals("--jdbc-url") && i + 1 < args.length) {
                jdbcUrl = args[++i];
            } else if (args[i].equals("--embedding-store") && i + 1 < args.length && args[i + 1].equals("in-memory")) {
                inMemoryVectors = true;
                i++;
            } else {
                System.err.println("Usage: LocomoRecall [--data PATH] [--candidates N] [--feedback W]"
                        + " [--conversations conv-26,conv-30]"
                        + " [--quantized | --bge] [--embedding-cache FILE] [--store embedded|jdbc] [--jdbc-url URL]"
                        + " [--embedding-store in-memory] [--baseline] [--ended]   (unknown argument: " + args[i] + ")");
                System.exit(2);
            }
        }
        if (store == Store.JDBC && (jdbcUrl == null || jdbcUrl.isBlank())) {
            System.err.println("--store jdbc needs --jdbc-url jdbc:postgresql://host:port/db?user=…");
            System.exit(2);
        }
        if (data == null) {
            data = ancestorHolding(Path.of("").toAbsolutePath(), DEFAULT_DATA);
        }
        if (data == null || !Files.isRegularFile(data)) {
            System.out.println("locomo: skipped, no LoCoMo data at " + (data != null ? data
                    : "any ancestor's " + DEFAULT_DATA) + " (pass --data PATH to locomo-dev.json)");
            return;
        }
        EmbeddingModel model = BeamRecall.model(quantized, bge && !baseline);
        EmbeddingStore<TextSegment> vectors = inMemoryVectors ? new InMemoryEmbeddingStore<>() : null;
        try (CachedEmbeddingModel cached = cache == null ? null : new CachedEmbeddingModel(model, cache)) {
            EmbeddingModel embeddingModel = cached != null ? cached : model;
            if (baseline) {
                runBaseline(data, only, embeddingModel, System.out);
                return;
            }
            if (store == Store.EMBEDDED) {
                run(data, only, embeddingModel, ranking, null, vectors, ended, System.out);
                return;
            }
            BenchDatabase database = BenchDatabase.open(jdbcUrl, "locomo_" + System.currentTimeMillis());
            try {
                System.out.println("store: JdbcWorkingMemoryStore on schema " + database.schema() + " of " + jdbcUrl);
                run(data, only, embeddingModel, ranking, database.dataSource(), vectors, ended, System.out);
            } finally {
                database.drop();
            }
        }
    }

    /** @return the first {@code <ancestor>/<relative>} that exists (a file or a folder), or null */
    static Path ancestorHolding(Path from, String relative) {
        for (Path dir = from; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.exists(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Runs the measurement and prints it, the {@code locomo:} line last.
     *
     * @param only           the ids of the conversations to run; all when empty
     * @param embeddingModel the provider's embedding model, or null for its default
     * @param ranking        the ranking of the provider's crystal store, or null for its default
     * @param dataSource     where a {@code JdbcWorkingMemoryStore} keeps the memory, or null for the provider's default
     * @param vectors        the provider's {@code embeddingStore}, or null for none
     * @param ended          ask from a new conversation of the user once this one's memory is unloaded (a pause)
     */
    static void run(Path data, Set<String> only, EmbeddingModel embeddingModel, CrystalRanking ranking,
                    DataSource dataSource, EmbeddingStore<TextSegment> vectors, boolean ended, PrintStream out)
            throws IOException {
        LocomoData.Stats stats = new LocomoData.Stats();
        List<Conversation> conversations = LocomoData.read(data, stats).stream()
                .filter(conversation -> only.isEmpty() || only.contains(conversation.id())).toList();
        out.printf("LoCoMo %s: %d conversations, %d turns, %d questions of categories 1-4; evidence ids normalised %d,"
                        + " dropped %d; questions dropped (no evidence left) %d%n", data,
                conversations.size(), conversations.stream().mapToInt(Conversation::turnCount).sum(),
                conversations.stream().mapToInt(c -> c.questions().size()).sum(), stats.normalisedIds,
                stats.droppedIds, stats.droppedQuestions);
        SessionClock clock = new SessionClock();
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().clock(clock);
        if (ended) {
            builder.maxCachedMemories(1); // loading the asking conversation unloads the one that ended
        }
        if (embeddingModel != null && ranking == null) { // else the crystal store below embeds with it
            builder.embeddingModel(embeddingModel);
        }
        if (dataSource != null) {
            builder.store(new JdbcWorkingMemoryStore(dataSource));
        }
        if (vectors != null && ranking == null) {
            builder.embeddingStore(vectors);
        }
        RecallTally total = new RecallTally();
        RecallTally[] categories = categoryTallies();
        List<Long> addNanos = new ArrayList<>();
        List<Long> searchNanos = new ArrayList<>();
        long feedNanos = 0;
        int turns = 0;
        int inWindow = 0;
        // per category (0: all), the questions whose every evidence turn is in a hit or in the window, and all
        int[] seenWithWindow = new int[5];
        int[] questions = new int[5];
        // a provider closes only the crystal store it opened itself
        EmbeddingModel crystalModel = embeddingModel != null ? embeddingModel : new AllMiniLmL6V2EmbeddingModel();
        CrystalStore crystals = ranking == null ? null : dataSource != null
                ? JdbcCrystalStore.builder().dataSource(dataSource).ranking(ranking).embeddingModel(crystalModel)
                .embeddingStore(vectors).build()
                : EmbeddedCrystalStore.builder().ranking(ranking).embeddingModel(crystalModel).embeddingStore(vectors)
                .build();
        if (crystals != null) {
            builder.crystalStore(crystals);
        }
        try (crystals; WorkingMemoryProvider provider = builder.build()) {
            for (Conversation conversation : conversations) {
                ChatMemory chat = provider.get(conversation.id());
                long start = System.nanoTime();
                for (Session session : conversation.sessions()) {
                    Instant time = session.time();
                    for (Turn turn : session.turns()) {
                        clock.set(time);
                        time = time.plusSeconds(SECONDS_PER_TURN);
                        String text = turn.speaker() + ": " + turn.text();
                        ChatMessage message = turn.speaker().equals(conversation.speakerA())
                                ? UserMessage.from(text) : AiMessage.from(text);
                        long before = System.nanoTime();
                        chat.add(message);
                        addNanos.add(System.nanoTime() - before);
                    }
                }
                Set<String> window = new HashSet<>();
                chat.messages().forEach(message -> window.add(textOf(message)));
                WorkingMemory memory = ended ? provider.memory(MemoryKey.of(conversation.id(), "later"))
                        : provider.memory(conversation.id());
                awaitIndexed(provider);
                long fed = System.nanoTime() - start;
                feedNanos += fed;
                turns += conversation.turnCount();

                Map<String, Turn> turnsById = conversation.turnsById();
                RecallTally tally = new RecallTally();
                for (Question question : conversation.questions()) {
                    long before = System.nanoTime();
                    List<MemoryHit> hits = memory.search(question.text(), LIMIT);
                    searchNanos.add(System.nanoTime() - before);
                    int found = 0;
                    int seen = 0;
                    boolean windowed = false;
                    for (String id : question.evidence()) {
                        Turn turn = turnsById.get(id);
                        String text = BeamRecall.folded(turn.text());
                        boolean inHits = hits.stream().anyMatch(hit -> BeamRecall.folded(hit.text()).contains(text));
                        boolean inWindowNow = window.contains(turn.speaker() + ": " + turn.text());
                        found += inHits ? 1 : 0;
                        seen += inHits || inWindowNow ? 1 : 0;
                        windowed |= inWindowNow;
                    }
                    if (windowed) {
                        inWindow++;
                    }
                    for (int c : new int[] {0, question.category()}) {
                        questions[c]++;
                        seenWithWindow[c] += seen == question.evidence().size() ? 1 : 0;
                    }
                    int tokens = hits.stream().mapToInt(MemoryHit::tokens).sum();
                    boolean marked = hits.stream().anyMatch(hit -> hit.earlierThan() != null);
                    tally.add(found, question.evidence().size(), tokens, marked, null);
                    categories[question.category()].add(found, question.evidence().size(), tokens, marked, null);
                }
                total.add(tally);
                out.printf("%s: %d sessions, %d turns fed and indexed in %.1f s; recall_all@10=%.3f"
                                + " recall_any@10=%.3f tokens@10=%.0f questions=%d%n", conversation.id(),
                        conversation.sessions().size(), conversation.turnCount(), fed / 1e9, tally.all(), tally.any(),
                        tally.tokens(), tally.questions);
            }
        }
        printCategories(categories, out);
        out.printf("questions with evidence still in the window at the end (%s): %d; recall_all@10 counting"
                + " the window too (what the model reads beside the hits): %.3f, category 1 %.3f%n",
                ended ? "searchable since the conversation ended" : "not searchable", inWindow,
                questions[0] == 0 ? 0 : (double) seenWithWindow[0] / questions[0],
                questions[1] == 0 ? 0 : (double) seenWithWindow[1] / questions[1]);
        out.printf("add() per message: p50 %.1f µs, p95 %.1f µs; feeding and indexing: %.1f ms per turn%n",
                percentile(addNanos, 50) / 1e3, percentile(addNanos, 95) / 1e3, feedNanos / 1e6 / turns);
        EmbeddingModel queryModel = embeddingModel != null ? embeddingModel : new AllMiniLmL6V2EmbeddingModel();
        List<Long> embedNanos = new ArrayList<>();
        for (Conversation conversation : conversations) {
            for (Question question : conversation.questions()) {
                long before = System.nanoTime();
                queryModel.embed(question.text());
                embedNanos.add(System.nanoTime() - before);
            }
        }
        out.printf("search latency: p50 %.1f ms, p95 %.1f ms (embedding the question alone: p50 %.1f ms, p95 %.1f ms)%n",
                percentile(searchNanos, 50) / 1e6, percentile(searchNanos, 95) / 1e6,
                percentile(embedNanos, 50) / 1e6, percentile(embedNanos, 95) / 1e6);
        printTotal(total, out);
    }

    /** @return a tally per LoCoMo category, indexed by category (1 to 4; 0 unused) */
    private static RecallTally[] categoryTallies() {
        RecallTally[] categories = new RecallTally[5];
        for (int category = 0; category < categories.length; category++) {
            categories[category] = new RecallTally();
        }
        return categories;
    }

    private static void printCategories(RecallTally[] categories, PrintStream out) {
        for (int category = 1; category <= 4; category++) {
            RecallTally tally = categories[category];
            out.printf("category %d: recall_all@10=%.3f recall_any@10=%.3f tokens@10=%.0f questions=%d%n", category,
                    tally.all(), tally.any(), tally.tokens(), tally.questions);
        }
    }

    /** The last line, which scripts read. */
    private static void printTotal(RecallTally total, PrintStream out) {
        out.printf("questions with a hit marked earlier than another: %.2f%n", total.marked());
        out.printf("locomo: recall_all@10=%.3f recall_any@10=%.3f tokens@10=%.0f questions=%d%n", total.all(),
                total.any(), total.tokens(), total.questions);
    }

    /** The naive baseline ({@link NaivePassages}) on each conversation's turns, measured as {@link #run} measures. */
    static void runBaseline(Path data, Set<String> only, EmbeddingModel model, PrintStream out) throws IOException {
        List<Conversation> conversations = LocomoData.read(data, new LocomoData.Stats()).stream()
                .filter(conversation -> only.isEmpty() || only.contains(conversation.id())).toList();
        out.printf("LoCoMo %s: %d conversations; naive baseline (%d-char passages, BM25 + MiniLM, RRF)%n", data,
                conversations.size(), NaivePassages.PASSAGE_CHARS);
        RecallTally total = new RecallTally();
        RecallTally[] categories = categoryTallies();
        for (Conversation conversation : conversations) {
            List<String> texts = new ArrayList<>();
            for (Session session : conversation.sessions()) {
                for (Turn turn : session.turns()) {
                    texts.add(turn.speaker() + ": " + turn.text());
                }
            }
            Map<String, Turn> turnsById = conversation.turnsById();
            RecallTally tally = new RecallTally();
            try (NaivePassages passages = new NaivePassages(model)) {
                passages.index(texts);
                for (Question question : conversation.questions()) {
                    List<String> returned = passages.search(question.text(), LIMIT, BeamRecall.TOKEN_BUDGET);
                    List<String> hits = returned.stream().map(BeamRecall::folded).toList();
                    int found = 0;
                    for (String id : question.evidence()) {
                        String text = BeamRecall.folded(turnsById.get(id).text());
                        if (hits.stream().anyMatch(hit -> hit.contains(text))) {
                            found++;
                        }
                    }
                    int tokens = returned.stream().mapToInt(NaivePassages::tokens).sum();
                    tally.add(found, question.evidence().size(), tokens, false, null);
                    categories[question.category()].add(found, question.evidence().size(), tokens, false, null);
                }
            }
            total.add(tally);
            out.printf("%s: %d turns; recall_all@10=%.3f recall_any@10=%.3f tokens@10=%.0f questions=%d%n",
                    conversation.id(), texts.size(), tally.all(), tally.any(), tally.tokens(), tally.questions);
        }
        printCategories(categories, out);
        printTotal(total, out);
    }

    /**
     * Waits until the provider's crystal store has indexed every crystal added so far: a search waits for its scope
     * only up to a timeout (a minute), which embedding a long conversation on a loaded machine exceeds.
     */
    static void awaitIndexed(WorkingMemoryProvider provider) {
        var store = provider.crystalStore().orElseThrow();
        try {
            while (store.pendingCount() > 0) {
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the crystals to be indexed", e);
        }
    }

    /** The message's text as it was added. */
    static String textOf(ChatMessage message) {
        if (message instanceof UserMessage user && user.hasSingleText()) {
            return user.singleText();
        }
        return message instanceof AiMessage ai && ai.text() != null ? ai.text() : "";
    }

    static double percentile(List<Long> values, int percent) {
        long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)];
    }

    /** The provider's clock: the time of the turn being fed. Thread-safe. */
    static final class SessionClock extends Clock {

        private volatile Instant now = Instant.EPOCH;

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
