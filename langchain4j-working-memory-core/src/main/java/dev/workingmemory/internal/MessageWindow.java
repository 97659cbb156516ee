package dev.workingmemory.internal;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;

import dev.workingmemory.layer.EvictedMessage;
import dev.workingmemory.layer.WindowMessages;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The conversation a memory keeps: one system message and a window of the latest messages.
 *
 * <p>The window is bounded by a message count or by tokens; the system message does not count. Eviction
 * removes whole turns (a turn starts at a user message) while more than one turn is kept; within the last
 * turn it removes the oldest messages, keeping an AI tool request together with its results, and never
 * removes the newest one (a single tool exchange larger than the window stays whole). {@link #view()}
 * never starts with a tool result and never holds a tool request without all its results, such as the
 * dangling request that {@code AiServices} leaves behind when it aborts on bad tool arguments.
 *
 * <p>The last turn's user message, once evicted, still opens {@link #view()} (not counted against the limit) until a
 * newer user message comes: an agent ten tool calls into a task of twenty messages keeps its task. It was evicted all
 * the same (the eviction listener has it, in order), so nothing else changes.
 *
 * <p><b>Turns of one memory at once.</b> Two requests of one conversation (two tabs, a retry) add their messages
 * interleaved: another turn's messages may come between a tool request and its results. A tool result (with an id)
 * whose request is followed by other messages than its results moves that request, with the results it has, to the end
 * of the window and joins them there: an exchange completes where its last result arrives, so the window stays a run
 * of whole units, and the turn's next request ends with its own calls and results, as when it runs alone. A request
 * still waiting for its results is left out of {@link #view()} wherever it stands. A result whose request already left
 * the window (its turn was evicted while the tool ran) follows it at once: it goes to the eviction listener, never into
 * the window, where it could not be sent. A result joins the newest request of its id still lacking it: the ids of
 * turns running at once must differ (OpenAI's are random), or the results may be paired across them. Results without
 * an id (some providers) are placed by order only, as they come. The order depends only on the order of the adds, so a window replayed from a log is the same.
 *
 * <p>Not thread-safe: guarded by the memory's lock.
 */
public final class MessageWindow {

    private final int maxMessages;
    private final int maxTokens;
    private final TokenCountEstimator estimator;
    private final List<ChatMessage> messages = new ArrayList<>();
    /** When each message was added (epoch millis), kept only for an eviction listener; the first messages.size() count. */
    private long[] added = new long[0];
    /** The log entry of each message ({@link #seq}), or -1; the first messages.size() count. */
    private long[] seqs = new long[16];
    private final List<Integer> tokens;
    private BiConsumer<List<EvictedMessage>, WindowMessages> evictionListener;
    /** The last turn's user message after the window evicted it, while no newer one came; else null. */
    private UserMessage turnStart;
    /** The window as the eviction listener sees it. */
    private final WindowMessages remaining = new Remaining();
    private Clock clock;
    private int totalTokens;
    private SystemMessage system;
    private List<ChatMessage> view;
    /** {@code messages[0, verified)} is a run of complete units: {@link #view()} checks only what came after. */
    private int verified;

    private MessageWindow(int maxMessages, int maxTokens, TokenCountEstimator estimator) {
        this.maxMessages = maxMessages;
        this.maxTokens = maxTokens;
        this.estimator = estimator;
        this.tokens = estimator == null ? null : new ArrayList<>();
    }

    public static MessageWindow ofMessages(int maxMessages) {
        return new MessageWindow(Ensure.positive(maxMessages, "maxMessages"), Integer.MAX_VALUE, null);
    }

    public static MessageWindow ofTokens(int maxTokens, TokenCountEstimator estimator) {
        return new MessageWindow(Integer.MAX_VALUE, Ensure.positive(maxTokens, "maxTokens"), Ensure.notNull(estimator, "estimator"));
    }

    /**
     * Hands every message evicted from now on to {@code listener}, with the time it was added by {@code clock}, and the
     * messages left in the window. Set it before adding messages.
     */
    public void onEviction(Clock clock, BiConsumer<List<EvictedMessage>, WindowMessages> listener) {
        Ensure.that(messages.isEmpty(), "Set the eviction listener before adding messages");
        this.clock = Ensure.notNull(clock, "clock");
        this.evictionListener = Ensure.notNull(listener, "listener");
    }

    public SystemMessage system() {
        return system;
    }

    /** Keeps {@code message} as the single system message; returns whether anything changed. */
    public boolean setSystem(SystemMessage message) {
        if (system != null && system.text().equals(message.text())) {
            return false;
        }
        system = message;
        return true;
    }

    public void add(ChatMessage message) {
        add(message, evictionListener == null ? 0 : clock.millis(), -1);
    }

    /**
     * Adds {@code message} as added at {@code addedMillis} (epoch millis; what the eviction listener is told), kept
     * in the log as the entry {@code seq} ({@link #seq}; -1 for none): a message replayed from a log keeps the time it
     * was first added. A system message replaces the system message. A tool result goes after its request (see the
     * class comment).
     */
    public void add(ChatMessage message, long addedMillis, long seq) {
        if (message instanceof SystemMessage systemMessage) {
            setSystem(systemMessage);
            return;
        }
        if (message instanceof ToolExecutionResultMessage result && result.id() != null) {
            int request = requestOf(result.id());
            if (request < 0) {
                if (evictionListener != null) {
                    evictionListener.accept(List.of(new EvictedMessage(message, Instant.ofEpochMilli(addedMillis))),
                            remaining);
                }
                return;
            }
            int end = endOfResults(messages, request);
            if (end < messages.size()) {
                moveToEnd(request, end);
            }
        }
        if (seqs.length == messages.size()) {
            seqs = Arrays.copyOf(seqs, seqs.length * 2);
        }
        seqs[messages.size()] = seq;
        if (evictionListener != null) {
            if (added.length == messages.size()) {
                added = Arrays.copyOf(added, Math.max(16, added.length * 2));
            }
            added[messages.size()] = addedMillis;
        }
        messages.add(message);
        if (message instanceof UserMessage) {
            turnStart = null;
        }
        if (tokens != null) {
            int count = estimator.estimateTokenCountInMessage(message);
            tokens.add(count);
            totalTokens += count;
        }
        evict();
        view = null;
    }

    /**
     * The index of the newest AI message in the window that requested the tool call {@code id} and has no result for
     * it yet, or -1 when there is none.
     */
    private int requestOf(String id) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof AiMessage ai && ai.hasToolExecutionRequests() && requests(ai, id)
                    && !answered(i, id)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean requests(AiMessage ai, String id) {
        for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
            if (id.equals(request.id())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a result of {@code id} follows the request at {@code request}. */
    private boolean answered(int request, String id) {
        int end = endOfResults(messages, request);
        for (int r = request + 1; r < end; r++) {
            if (id.equals(((ToolExecutionResultMessage) messages.get(r)).id())) {
                return true;
            }
        }
        return false;
    }

    /** Moves the messages {@code [from, to)} after the last one, keeping their times, seqs and tokens. */
    private void moveToEnd(int from, int to) {
        int size = messages.size();
        int distance = from - to;
        Collections.rotate(messages.subList(from, size), distance);
        if (tokens != null) {
            Collections.rotate(tokens.subList(from, size), distance);
        }
        rotate(seqs, from, to, size);
        if (evictionListener != null) {
            rotate(added, from, to, size);
        }
        verified = Math.min(verified, from);
        view = null;
    }

    private static void rotate(long[] values, int from, int to, int size) {
        long[] moved = Arrays.copyOfRange(values, from, to);
        System.arraycopy(values, to, values, from, size - to);
        System.arraycopy(moved, 0, values, size - moved.length, moved.length);
    }

    public void clear() {
        system = null;
        turnStart = null;
        messages.clear();
        if (tokens != null) {
            tokens.clear();
        }
        totalTokens = 0;
        view = null;
        verified = 0;
    }

    /** Everything to persist: the system message first, then the window as it is. */
    public List<ChatMessage> all() {
        List<ChatMessage> all = new ArrayList<>(messages.size() + 1);
        if (system != null) {
            all.add(system);
        }
        all.addAll(messages);
        return all;
    }

    /**
     * The window as a model may see it, opened by the last turn's evicted user message while it has one; cached until
     * the next change. Do not modify.
     */
    public List<ChatMessage> view() {
        if (view == null) {
            List<ChatMessage> window = buildView();
            if (turnStart == null) {
                view = window;
            } else {
                List<ChatMessage> opened = new ArrayList<>(window.size() + 1);
                opened.add(turnStart);
                opened.addAll(window);
                view = Collections.unmodifiableList(opened);
            }
        }
        return view;
    }

    /**
     * {@link #consistent} of the window, without copying in the usual cases (benchmarks/README.md: {@code AiServices}
     * reads the view after every add). Only the messages added since the last check are examined: the complete units
     * before them stay complete, since eviction only removes whole units from the front. A window of complete units
     * is served as it is, and so is one that ends in a tool request still waiting for its results, minus that request;
     * anything else (an orphan result, an unanswered request followed by more messages) is rebuilt.
     */
    private List<ChatMessage> buildView() {
        int size = messages.size();
        verified = skipCompleteUnits(messages, verified);
        if (verified == size) {
            return Collections.unmodifiableList(messages);
        }
        if (isPendingExchange(messages, verified)) {
            return Collections.unmodifiableList(messages.subList(0, verified));
        }
        return consistent(messages);
    }

    /**
     * Removes the oldest turn (everything before the second user message), handing it to the eviction listener.
     *
     * @return false when the window holds one turn or less, which always stays
     */
    public boolean evictOldestTurn() {
        int end = nextTurnStart();
        if (end < 0) {
            return false;
        }
        evictFirst(end);
        return true;
    }

    /** How many messages {@link #evictOldestTurn()} would remove: those before the second user message; 0 for none. */
    public int oldestTurnSize() {
        return Math.max(0, nextTurnStart());
    }

    /** Removes the {@code count} oldest messages, handing them to the eviction listener. */
    public void evictFirst(int count) {
        Ensure.that(count >= 0 && count <= messages.size(), "count must be within 0 and " + messages.size());
        removeFirst(count);
        view = null;
    }

    /**
     * The window's messages with the times they were added, oldest first, the system message aside: a live view that
     * copies nothing (read it holding the memory's lock). The times are kept once an eviction listener is set.
     */
    public WindowMessages messages() {
        return remaining;
    }

    /** The number of messages in the window, the system message aside (a dangling tool request included). */
    public int size() {
        return messages.size();
    }

    /** The message at {@code index}, oldest first, the system message aside. */
    public ChatMessage message(int index) {
        return messages.get(index);
    }

    /** The log entry that added the message at {@code index} (as given to {@link #add(ChatMessage, long, long)}). */
    public long seq(int index) {
        Objects.checkIndex(index, messages.size());
        return seqs[index];
    }

    private boolean overLimit() {
        return messages.size() > maxMessages || totalTokens > maxTokens;
    }

    private void evict() {
        while (overLimit()) {
            int end = nextTurnStart();
            if (end < 0) {
                end = endOfUnit(0);
                if (end >= messages.size()) {
                    break; // the newest unit stays, even alone over the limit
                }
            }
            removeFirst(end);
        }
        int orphans = 0;
        while (orphans < messages.size() && messages.get(orphans) instanceof ToolExecutionResultMessage) {
            orphans++;
        }
        removeFirst(orphans);
    }

    private boolean holdsUserMessage() {
        for (ChatMessage message : messages) {
            if (message instanceof UserMessage) {
                return true;
            }
        }
        return false;
    }

    /** The index of the second turn's user message, or -1 when the window holds one turn. */
    private int nextTurnStart() {
        for (int i = 1; i < messages.size(); i++) {
            if (messages.get(i) instanceof UserMessage) {
                return i;
            }
        }
        return -1;
    }

    /** The end (exclusive) of the message at {@code start} together with the tool results that answer it. */
    private int endOfUnit(int start) {
        int end = start + 1;
        if (messages.get(start) instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
            while (end < messages.size() && messages.get(end) instanceof ToolExecutionResultMessage) {
                end++;
            }
        }
        return end;
    }

    private void removeFirst(int count) {
        if (count <= 0) {
            return;
        }
        if (tokens != null) {
            List<Integer> removed = tokens.subList(0, count);
            for (int t : removed) {
                totalTokens -= t;
            }
            removed.clear();
        }
        List<EvictedMessage> evicted = null;
        if (evictionListener != null) {
            evicted = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                evicted.add(new EvictedMessage(messages.get(i), Instant.ofEpochMilli(added[i])));
            }
            System.arraycopy(added, count, added, 0, messages.size() - count);
        }
        System.arraycopy(seqs, count, seqs, 0, messages.size() - count);
        UserMessage lastUser = null;
        for (int i = count - 1; i >= 0 && lastUser == null; i--) {
            if (messages.get(i) instanceof UserMessage user) {
                lastUser = user;
            }
        }
        messages.subList(0, count).clear();
        verified = Math.max(0, verified - count);
        if (lastUser != null) {
            turnStart = holdsUserMessage() ? null : lastUser;
        }
        if (evicted != null) {
            evictionListener.accept(evicted, remaining); // after the window is consistent again
        }
    }

    /**
     * The end of the run of complete units that starts at {@code from}: a message other than a tool result, or an AI
     * tool request followed by exactly the results that answer each of its calls. Stops at the first orphan result or
     * request without all its results.
     */
    static int skipCompleteUnits(List<ChatMessage> messages, int from) {
        int size = messages.size();
        int i = from;
        while (i < size) {
            ChatMessage message = messages.get(i);
            if (message instanceof ToolExecutionResultMessage) {
                return i;
            }
            if (message instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                int end = endOfResults(messages, i);
                List<ChatMessage> results = messages.subList(i + 1, end);
                List<ChatMessage> answers = answers(ai.toolExecutionRequests(), results);
                if (answers == null || answers.size() != results.size()) {
                    return i;
                }
                i = end;
                continue;
            }
            i++;
        }
        return size;
    }

    /** Whether {@code messages} from {@code start} on are one tool request, last in the window, lacking some result. */
    private static boolean isPendingExchange(List<ChatMessage> messages, int start) {
        if (!(messages.get(start) instanceof AiMessage ai) || !ai.hasToolExecutionRequests()) {
            return false;
        }
        int end = endOfResults(messages, start);
        return end == messages.size() && answers(ai.toolExecutionRequests(), messages.subList(start + 1, end)) == null;
    }

    /** The index after the tool results that follow the message at {@code request}. */
    private static int endOfResults(List<ChatMessage> messages, int request) {
        int end = request + 1;
        while (end < messages.size() && messages.get(end) instanceof ToolExecutionResultMessage) {
            end++;
        }
        return end;
    }

    /**
     * {@code messages} without orphan tool results and without AI tool requests lacking any of their results
     * (such a request is dropped with the partial results that followed it). Results that follow a request
     * but answer another one are orphans too.
     */
    static List<ChatMessage> consistent(List<ChatMessage> messages) {
        List<ChatMessage> out = new ArrayList<>(messages.size());
        int i = 0;
        while (i < messages.size()) {
            ChatMessage message = messages.get(i);
            if (message instanceof ToolExecutionResultMessage) {
                i++; // a result whose request is gone
                continue;
            }
            if (message instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                int end = endOfResults(messages, i);
                List<ChatMessage> answers = answers(ai.toolExecutionRequests(), messages.subList(i + 1, end));
                if (answers != null) {
                    out.add(ai);
                    out.addAll(answers);
                }
                i = end;
                continue;
            }
            out.add(message);
            i++;
        }
        return out;
    }

    /**
     * The results that answer {@code requests}, in their order, or {@code null} when a request is unanswered.
     * Requests without an id (some providers) are answered by results without an id, one each.
     */
    private static List<ChatMessage> answers(List<ToolExecutionRequest> requests, List<ChatMessage> results) {
        if (results.size() < requests.size()) {
            return null; // each request needs a result of its own: the usual case of a request still running
        }
        if (requests.size() == 1 && results.size() == 1) {
            // The common exchange, one call and its result, without the sets below (messages() runs this per turn).
            String id = ((ToolExecutionResultMessage) results.get(0)).id();
            return Objects.equals(requests.get(0).id(), id) ? results : null;
        }
        Set<String> pending = new HashSet<>();
        int pendingWithoutId = 0;
        for (ToolExecutionRequest request : requests) {
            if (request.id() == null) {
                pendingWithoutId++;
            } else {
                pending.add(request.id());
            }
        }
        List<ChatMessage> answers = new ArrayList<>(results.size());
        for (ChatMessage message : results) {
            String id = ((ToolExecutionResultMessage) message).id();
            if (id == null ? pendingWithoutId-- > 0 : pending.remove(id)) {
                answers.add(message);
            }
        }
        return pending.isEmpty() && pendingWithoutId <= 0 ? answers : null;
    }

    /** The messages of the window with their add times, without copying. */
    private final class Remaining implements WindowMessages {

        @Override
        public int size() {
            return messages.size();
        }

        @Override
        public ChatMessage message(int index) {
            return messages.get(index);
        }

        @Override
        public Instant added(int index) {
            Objects.checkIndex(index, messages.size());
            return Instant.ofEpochMilli(added[index]);
        }
    }
}
