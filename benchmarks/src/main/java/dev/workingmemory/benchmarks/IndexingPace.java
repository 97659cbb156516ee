package dev.workingmemory.benchmarks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.internal.DefaultEmbeddingModel;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How fast a default {@link WorkingMemoryProvider} takes a conversation in: messages fed through its
 * {@link ChatMemory} per second, counted until the crystal store has indexed everything they produced (past turns cut
 * into passages, embedded in batches). A {@code main} that uses only API older than the passages of issue 20, so the
 * same class runs against an older core jar put first on the class path:
 * {@code java -cp core-old.jar:benchmarks/target/benchmarks.jar dev.workingmemory.benchmarks.IndexingPace ...}.
 *
 * <p>Usage: {@code IndexingPace [--beam DIR] [--chats 1,4] [--locomo FILE] [--quantized]} (defaults: BEAM chats 1 and 4 of
 * {@code ../shared/bench/beam}; LoCoMo only when {@code --locomo} is given). Prints one line per corpus:
 * {@code pace: <corpus> messages=<n> seconds=<s> messages_per_second=<r> process_cpu_seconds=<c> texts_embedded=<t>
 * chars_embedded=<k>} (the texts handed to the model, queries of the memory's own searches included). The clock is the
 * messages' own time, as in {@link BeamRecall} and {@link LocomoRecall}; the provider's default embedding model
 * ({@code --quantized}: the quantized MiniLM) is warmed up before the clock starts.
 */
public final class IndexingPace {

    private IndexingPace() {
    }

    public static void main(String[] args) throws IOException {
        Path beam = null;
        Path locomo = null;
        List<Integer> chats = new ArrayList<>(List.of(1, 4));
        boolean quantized = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--beam") && i + 1 < args.length) {
                beam = Path.of(args[++i]);
            } else if (args[i].equals("--locomo") && i + 1 < args.length) {
                locomo = Path.of(args[++i]);
            } else if (args[i].equals("--quantized")) {
                quantized = true;
            } else if (args[i].equals("--chats") && i + 1 < args.length) {
                chats.clear();
                Arrays.stream(args[++i].split(",")).map(String::strip).map(Integer::parseInt).forEach(chats::add);
            } else {
                System.err.println("Usage: IndexingPace [--beam DIR] [--chats 1,4] [--locomo FILE] [--quantized]   (unknown"
                        + " argument: " + args[i] + ")");
                System.exit(2);
            }
        }
        if (beam == null) {
            beam = LocomoRecall.ancestorHolding(Path.of("").toAbsolutePath(), BeamRecall.DEFAULT_DATA);
        }
        // the provider's own default model unless told otherwise (of whichever core is first on the class path)
        EmbeddingModel model = quantized ? new AllMiniLmL6V2QuantizedEmbeddingModel() : DefaultEmbeddingModel.INSTANCE;
        model.embed("warm up the model before the clock starts");
        if (beam != null && Files.isDirectory(beam)) {
            List<List<ChatMessage>> conversations = new ArrayList<>();
            List<List<Instant>> times = new ArrayList<>();
            for (BeamData.Chat chat : BeamData.read(beam, chats)) {
                conversations.add(chat.messages().stream().map(message -> message.user()
                        ? (ChatMessage) UserMessage.from(message.text()) : AiMessage.from(message.text())).toList());
                times.add(chat.messages().stream().map(BeamData.Message::time).toList());
            }
            feed("beam chats " + chats, conversations, times, model);
        } else {
            System.out.println("pace: no BEAM data at " + beam + " (pass --beam DIR)");
        }
        if (locomo != null) {
            List<List<ChatMessage>> conversations = new ArrayList<>();
            List<List<Instant>> times = new ArrayList<>();
            for (LocomoData.Conversation conversation : LocomoData.read(locomo, new LocomoData.Stats())) {
                List<ChatMessage> messages = new ArrayList<>();
                List<Instant> at = new ArrayList<>();
                for (LocomoData.Session session : conversation.sessions()) {
                    Instant time = session.time();
                    for (LocomoData.Turn turn : session.turns()) {
                        String text = turn.speaker() + ": " + turn.text();
                        messages.add(turn.speaker().equals(conversation.speakerA())
                                ? UserMessage.from(text) : AiMessage.from(text));
                        at.add(time);
                        time = time.plusSeconds(LocomoRecall.SECONDS_PER_TURN);
                    }
                }
                conversations.add(messages);
                times.add(at);
            }
            feed("locomo " + locomo.getFileName(), conversations, times, model);
        }
        System.exit(0);
    }

    private static void feed(String corpus, List<List<ChatMessage>> conversations, List<List<Instant>> times,
                             EmbeddingModel embeddingModel) {
        CountingEmbeddingModel model = new CountingEmbeddingModel(embeddingModel);
        LocomoRecall.SessionClock clock = new LocomoRecall.SessionClock();
        int messages = 0;
        long cpuBefore = processCpuNanos();
        long start = System.nanoTime();
        try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().clock(clock).embeddingModel(model)
                .build()) {
            for (int c = 0; c < conversations.size(); c++) {
                ChatMemory memory = provider.get("pace-" + c);
                List<ChatMessage> conversation = conversations.get(c);
                for (int m = 0; m < conversation.size(); m++) {
                    clock.set(times.get(c).get(m));
                    memory.add(conversation.get(m));
                    messages++;
                }
            }
            LocomoRecall.awaitIndexed(provider);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (processCpuNanos() - cpuBefore) / 1e9;
            System.out.printf(Locale.ROOT, "pace: %s messages=%d seconds=%.1f messages_per_second=%.1f"
                    + " process_cpu_seconds=%.1f texts_embedded=%d chars_embedded=%d%n", corpus, messages, seconds,
                    messages / seconds, cpu, model.texts.get(), model.chars.get());
        }
    }

    /** Counts what is embedded (texts and their characters) on its way to the model. */
    private static final class CountingEmbeddingModel implements EmbeddingModel {

        private final EmbeddingModel model;
        final AtomicLong texts = new AtomicLong();
        final AtomicLong chars = new AtomicLong();

        CountingEmbeddingModel(EmbeddingModel model) {
            this.model = model;
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            texts.addAndGet(segments.size());
            segments.forEach(segment -> chars.addAndGet(segment.text().length()));
            return model.embedAll(segments);
        }

        @Override
        public int dimension() {
            return model.dimension();
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
