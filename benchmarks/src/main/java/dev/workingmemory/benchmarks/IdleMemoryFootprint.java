package dev.workingmemory.benchmarks;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.MessageLog;
import dev.workingmemory.store.MessageLogEntry;
import dev.workingmemory.store.Snapshot;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.store.WorkingMemoryStore;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * Heap held by idle memories: builds {@code N} memories (default 10,000) in one provider, forces full GCs and reads
 * the used heap before and after; the difference divided by {@code N} is the heap per memory. Not a JMH benchmark:
 * JMH measures time and allocation rate, not what stays reachable.
 *
 * <p>Run: {@code java -Xmx4g -cp benchmarks/target/benchmarks.jar dev.workingmemory.benchmarks.IdleMemoryFootprint [N]}
 *
 * <p>Every memory gets its own strings (see {@link Fixtures#text}); only the system prompt and the message
 * objects' constant parts are shared, as they would be in an application.
 */
public final class IdleMemoryFootprint {

    private static final long GIB = 1L << 30;

    private IdleMemoryFootprint() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        System.out.printf(Locale.ROOT, "%,d memories per case; JDK %s, max heap %,d MB, GC %s%n%n", n,
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getGarbageCollectorMXBeans().get(0).getName());
        // A first pass warms class loading and JIT caches so that they do not count in the first case.
        measure("(warm-up)", Math.min(n, 500), i -> fullWithWindow(defaultProvider(n), i, true), false);

        System.out.printf("%-72s %14s %12s %14s%n", "case", "total heap", "per memory", "fit in 1 GiB");
        measure("provider holding N ids, each used once (empty memories)", n, i -> touched(defaultProvider(n), i), true);
        measure("full state + window, never rendered, stores keep nothing", n,
                i -> fullWithWindow(discardingProvider(n), i, false), true);
        measure("full state + window, rendered (idle after a turn), stores keep nothing", n,
                i -> fullWithWindow(discardingProvider(n), i, true), true);
        measure("full state + window, rendered, default in-memory stores", n,
                i -> fullWithWindow(defaultProvider(n), i, true), true);
        measure("baseline: MessageWindowChatMemory, same window", n, IdleMemoryFootprint::baselineWindow, true);
    }

    /** Provider instances are created once per case by the first call of the builder below. */
    private static WorkingMemoryProvider provider;

    private static WorkingMemoryProvider defaultProvider(int n) {
        if (provider == null) {
            provider = WorkingMemoryProvider.builder().maxMessages(Fixtures.WINDOW).maxCachedMemories(n).build();
        }
        return provider;
    }

    private static WorkingMemoryProvider discardingProvider(int n) {
        if (provider == null) {
            provider = WorkingMemoryProvider.builder().maxMessages(Fixtures.WINDOW).maxCachedMemories(n)
                    .store(new DiscardingStore()).chatMemoryStore(new DiscardingChatStore()).build();
        }
        return provider;
    }

    private static Object touched(WorkingMemoryProvider provider, int i) {
        provider.get("user-" + i).messages();
        return provider;
    }

    /**
     * A memory with the full state of the per-turn benchmark and a full window of 20 messages (five turns).
     * {@code rendered}: {@code messages()} was called after the last message, as {@code AiServices} does before
     * every model call, so the render caches hold the block and the system message: how a memory idles between
     * two turns.
     */
    private static Object fullWithWindow(WorkingMemoryProvider provider, int i, boolean rendered) {
        Fixtures.fill(provider.memory("user-" + i), "user-" + i);
        ChatMemory chat = provider.get("user-" + i);
        chat.add(SYSTEM);
        addTurns(chat, i);
        if (rendered) {
            chat.messages();
        }
        return provider;
    }

    private static Object baselineWindow(int i) {
        ChatMemory chat = MessageWindowChatMemory.withMaxMessages(Fixtures.WINDOW + 1);
        chat.add(SYSTEM);
        addTurns(chat, i);
        chat.messages();
        return chat;
    }

    /** The provider's default {@code saveDelay}. */
    private static final long SAVE_DELAY_MILLIS = 1_000;

    private static final SystemMessage SYSTEM = SystemMessage.from(Fixtures.SYSTEM_PROMPT);

    /** Five turns of four messages, each with its own texts: a full window. */
    private static void addTurns(ChatMemory chat, int i) {
        for (int t = 0; t < 5; t++) {
            int page = i * 10 + t;
            ToolExecutionRequest request = Fixtures.request(page);
            chat.add(UserMessage.from(Fixtures.text("user " + i + " turn " + t, 80)));
            chat.add(AiMessage.from(request));
            chat.add(Fixtures.toolResult(request, Fixtures.pageResult(page)));
            chat.add(AiMessage.from(Fixtures.text("answer " + i + " turn " + t, 120)));
        }
    }

    private static void measure(String label, int n, IntFunction<Object> build, boolean print) throws InterruptedException {
        provider = null;
        long before = usedAfterGc();
        List<Object> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object o = build.apply(i);
            if (held.isEmpty() || held.get(held.size() - 1) != o) {
                held.add(o);
            }
        }
        if (provider != null) {
            // Idle means saved: the state is in the store and the saves queued behind the turns have run.
            provider.flush();
            Thread.sleep(SAVE_DELAY_MILLIS + 500);
        }
        long after = usedAfterGc();
        long total = after - before;
        long per = total / n;
        if (print) {
            System.out.printf(Locale.ROOT, "%-72s %,11d KB %,10d B %,14d%n", label, total >> 10, per, GIB / Math.max(per, 1));
        }
        Reference.reachabilityFence(held);
        held.clear();
        if (provider != null) {
            provider.close();
        }
        provider = null;
    }

    private static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /**
     * Keeps nothing but each key's version numbers (a memory checks them before each use): isolates what the live
     * memory holds from the copies the default in-memory stores keep.
     */
    private static final class DiscardingStore implements WorkingMemoryStore {
        private final Map<String, Long> versions = new ConcurrentHashMap<>();
        private final Map<String, Long> messageVersions = new ConcurrentHashMap<>();

        @Override
        public Optional<Snapshot> load(String key) {
            return Optional.empty();
        }

        @Override
        public long version(String key) {
            return versions.getOrDefault(key, 0L);
        }

        @Override
        public Snapshot save(String key, long expectedVersion, String document) {
            versions.put(key, expectedVersion + 1);
            return new Snapshot(key, expectedVersion + 1, "");
        }

        @Override
        public void appendNote(String key, String line) {
        }

        @Override
        public List<String> notes(String key) {
            return List.of();
        }

        @Override
        public void removeNotes(String key, Collection<String> lines) {
        }

        @Override
        public long notesVersion(String key) {
            return 0;
        }

        @Override
        public long appendMessages(String key, long expectedLastSeq, List<MessageLogEntry> entries) {
            return messageVersions.merge(key, (long) entries.size(), Long::sum);
        }

        @Override
        public MessageLog messages(String key, long afterSeq) {
            return new MessageLog(messagesVersion(key), List.of());
        }

        @Override
        public long messagesVersion(String key) {
            return messageVersions.getOrDefault(key, 0L);
        }

        @Override
        public void trimMessages(String key, long throughSeq) {
        }

        @Override
        public void putDocument(String key, String name, String text) {
        }

        @Override
        public Optional<String> getDocument(String key, String name) {
            return Optional.empty();
        }

        @Override
        public List<StoredDocument> documents(String key) {
            return List.of();
        }

        @Override
        public void deleteDocument(String key, String name) {
        }

        @Override
        public boolean acquireLease(String key, String name, String owner, Duration ttl) {
            return true;
        }

        @Override
        public void releaseLease(String key, String name, String owner) {
        }

        @Override
        public void delete(String key) {
            versions.remove(key);
            messageVersions.remove(key);
        }

        @Override
        public List<String> keys() {
            return List.of();
        }
    }

    private static final class DiscardingChatStore implements ChatMemoryStore {
        @Override
        public List<ChatMessage> getMessages(Object memoryId) {
            return List.of();
        }

        @Override
        public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        }

        @Override
        public void deleteMessages(Object memoryId) {
        }
    }
}
