package dev.workingmemory;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.MemoryId;
import dev.workingmemory.testing.ToolMessageOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * What the tests of two turns of one memory id at once share: an assistant, a tool whose results name their key, a
 * model scripted per turn, and a memory provider that pauses a thread right after one of its adds, so that a test
 * decides which message of the other thread comes between (only the scheduling is forced; the memory sees the calls
 * that two threads of {@code AiServices} make when they run in that order).
 */
final class InterleavedTurns {

    static final String SYSTEM = "You look records up.";

    interface Assistant {
        @dev.langchain4j.service.SystemMessage(SYSTEM)
        String chat(@MemoryId String id, @dev.langchain4j.service.UserMessage String message);
    }

    private InterleavedTurns() {
    }

    /** The text of the record a lookup of {@code key} returns: its key is a word of its own, found by keyword. */
    static String record(String key) {
        return "{\"record\":{\"id\":\"" + key + "\",\"name\":\"Record " + key + "\"}}";
    }

    static ToolExecutionRequest lookup(String key) {
        return ToolExecutionRequest.builder().id("call_" + key).name("findRecord")
                .arguments("{\"key\":\"" + key + "\"}").build();
    }

    static final class Tools {
        @Tool("Looks a record up by its key")
        String findRecord(@P("key") String key) {
            return record(key);
        }
    }

    /**
     * Answers a turn's first call (its user message last, as {@code AiServices} sends it) with a lookup of each key
     * scripted for that message, all in one AI message, or with an answer when none is; a later call of the turn with
     * the answer. Notes every request that breaks the tool message rule, and every later call that does not show the
     * turn's own requests directly followed by their results. Thread-safe: a turn is the calling thread's.
     */
    static final class TurnModel implements ChatModel {
        private final Map<String, List<String>> keys = new ConcurrentHashMap<>();
        private final ThreadLocal<String> turn = new ThreadLocal<>();
        private final ThreadLocal<List<String>> open = new ThreadLocal<>();
        final Queue<String> problems = new ConcurrentLinkedQueue<>();
        /** Later calls whose request did not show the turn's own requests and results. */
        final Queue<String> unseen = new ConcurrentLinkedQueue<>();
        /** Later calls whose request did not end with the turn's own results (the order this memory promises). */
        final Queue<String> notLast = new ConcurrentLinkedQueue<>();
        final Queue<ChatRequest> requests = new ConcurrentLinkedQueue<>();

        TurnModel looksUp(String userMessage, String... recordKeys) {
            keys.put(userMessage, List.of(recordKeys));
            return this;
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            List<ChatMessage> messages = request.messages();
            ToolMessageOrder.violations(messages).forEach(p -> problems.add(Thread.currentThread().getName() + ": " + p));
            List<String> calls = open.get();
            if (calls == null) {
                String text = ((UserMessage) messages.get(messages.size() - 1)).singleText();
                turn.set(text);
                List<String> lookups = keys.get(text);
                if (lookups != null) {
                    open.set(lookups);
                    return ChatResponse.builder().aiMessage(AiMessage.from(
                            lookups.stream().map(InterleavedTurns::lookup).toList())).build();
                }
            } else {
                open.remove();
                checkShown(messages, calls);
            }
            return ChatResponse.builder().aiMessage(AiMessage.from("answered " + turn.get())).build();
        }

        private void checkShown(List<ChatMessage> messages, List<String> calls) {
            List<String> ids = calls.stream().map(key -> "call_" + key).toList();
            for (int i = 0; i < messages.size(); i++) {
                if (messages.get(i) instanceof AiMessage ai && ai.hasToolExecutionRequests()
                        && ai.toolExecutionRequests().stream().map(ToolExecutionRequest::id).toList().equals(ids)) {
                    if (i + ids.size() != messages.size() - 1) {
                        notLast.add(turn.get());
                    }
                    return;
                }
            }
            unseen.add(turn.get());
        }
    }

    /** A point where a thread stops right after adding a message, until released. */
    static final class Pause {
        private final Predicate<ChatMessage> after;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        Pause(Predicate<ChatMessage> after) {
            this.after = after;
        }

        void awaitReached() throws InterruptedException {
            if (!reached.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("The pause was never reached");
            }
        }

        void release() {
            released.countDown();
        }

        private void passed(ChatMessage message) {
            if (reached.getCount() > 0 && after.test(message)) {
                reached.countDown();
                try {
                    if (!released.await(30, TimeUnit.SECONDS)) {
                        throw new AssertionError("The pause was never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Starts {@code first} and lets it run to {@code firstStops}, starts {@code second} and lets it run to
     * {@code secondStops}, then lets one end before the other; returns their answers, first's first.
     */
    static List<String> overlap(Callable<Future<String>> first, Pause firstStops, Callable<Future<String>> second,
                                Pause secondStops, boolean firstEndsFirst) throws Exception {
        Future<String> one = first.call();
        firstStops.awaitReached();
        Future<String> two = second.call();
        secondStops.awaitReached();
        (firstEndsFirst ? firstStops : secondStops).release();
        String ended = (firstEndsFirst ? one : two).get(30, TimeUnit.SECONDS); // while the other one still waits
        (firstEndsFirst ? secondStops : firstStops).release();
        String other = (firstEndsFirst ? two : one).get(30, TimeUnit.SECONDS);
        return firstEndsFirst ? List.of(ended, other) : List.of(other, ended);
    }

    static Pause afterToolRequest(String key) {
        return new Pause(m -> m instanceof AiMessage ai && ai.hasToolExecutionRequests()
                && ai.toolExecutionRequests().stream().anyMatch(r -> r.arguments().contains("\"" + key + "\"")));
    }

    static Pause afterResult(String key) {
        return new Pause(m -> m instanceof ToolExecutionResultMessage result && result.text().equals(record(key)));
    }

    static Pause afterUserMessage(String text) {
        return new Pause(m -> m instanceof UserMessage user && user.singleText().equals(text));
    }

    /**
     * The provider's memories, each checking what {@code messages()} returns (every call, both threads) and passing
     * the pauses after its adds.
     */
    static final class PausingMemories implements ChatMemoryProvider {
        private final WorkingMemoryProvider memories;
        private final List<Pause> pauses = new CopyOnWriteArrayList<>();
        final Queue<String> problems = new ConcurrentLinkedQueue<>();

        PausingMemories(WorkingMemoryProvider memories) {
            this.memories = memories;
        }

        Pause pause(Pause pause) {
            pauses.add(pause);
            return pause;
        }

        @Override
        public ChatMemory get(Object memoryId) {
            ChatMemory memory = memories.get(memoryId);
            return new ChatMemory() {
                @Override
                public Object id() {
                    return memoryId;
                }

                @Override
                public void add(ChatMessage message) {
                    memory.add(message);
                    for (Pause pause : pauses) {
                        pause.passed(message);
                    }
                }

                @Override
                public List<ChatMessage> messages() {
                    List<ChatMessage> messages = memory.messages();
                    ToolMessageOrder.violations(messages).forEach(p -> problems.add("messages(): " + p));
                    return messages;
                }

                @Override
                public void clear() {
                    memory.clear();
                }
            };
        }
    }

    /** The texts of the tool results among {@code messages}. */
    static List<String> results(List<ChatMessage> messages) {
        List<String> results = new ArrayList<>();
        for (ChatMessage message : messages) {
            if (message instanceof ToolExecutionResultMessage result) {
                results.add(result.text());
            }
        }
        return results;
    }
}
