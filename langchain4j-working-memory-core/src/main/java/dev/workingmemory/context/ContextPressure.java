package dev.workingmemory.context;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.event.OutputPruned;
import dev.workingmemory.event.PressureChanged;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.EvictedMessage;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.layer.RequestDraft;
import dev.workingmemory.layer.RequestShaper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Context pressure (seed 003, tiers 3 and 4): measures every request against the model's context window, prunes the
 * tool results in it in the mode of the level, intervenes at {@link PressureLevel#HIGH} without a model call, and
 * renders {@code <pressure level="moderate" percent="82">…advice…</pressure>} at moderate and high. The advice names
 * the tools that free space in the other layers of the thread that hold something ({@link LayerContext#reliefs()}) and
 * that the model has.
 *
 * <p><b>Measuring.</b> A request's pressure is its estimated tokens (system message with the block, then the window,
 * tool results pruned in {@link PruningMode#NORMAL} mode) against {@link RequestDraft#contextWindow()}. Measuring with
 * normal pruning, not with the mode the level picks, keeps the level from flapping: a request pruned harder because
 * it was at 80% would measure safe next time and be pruned less again. The level is that measure; the percent the
 * block shows is of the request as it is sent (pruned in the level's mode, after any intervention, with the element
 * itself), and at high the element also says at what percent the memory intervened. Each message is estimated once
 * while it stays in the window, and each tool result pruned once per mode.
 *
 * <p><b>Pruning.</b> Every large tool result ({@link ContextPressureConfig#largeOutputTokens}: by default 1% of the
 * context window, at most 1,000 tokens, half that at moderate pressure, a quarter at high) is sent pruned by the
 * {@link ToolOutputPruner} in the level's mode (normal, aggressive, hyper: line thresholds 50, 30, 15 and the character
 * threshold of long lines by default); a smaller one is sent whole. What the model sees keeps the tool call's id and tool name; the
 * message store keeps the full result; the full text is kept in the {@link ToolOutputCache} and the pruned text ends
 * with how many lines were cut and, when the model has the tool ({@link LayerContext#offersTool}), the call that reads
 * it back: {@code read_tool_output("tool-output-…")}. The
 * results of the memory's own tools ({@link LayerContext#isMemoryToolResult}) and of
 * {@link ContextPressureConfig#unprunedTools()} are never pruned nor shortened.
 *
 * <p><b>Intervention at high.</b> Until the request is under the high mark: the older tool results (all but those
 * answering the latest tool call, and those no longer than a reference) are replaced, oldest first, by a one-line
 * reference to their cached output, and this
 * sticks for later requests; then the oldest turns leave the message window for good ({@link RequestDraft#evictOldestTurn},
 * so layers that keep past turns see them). The newest turn always stays. Each intervention is counted and told to
 * the {@link PressureListener}.
 *
 * <p><b>Governance.</b> The layer counts the messages it observes; every
 * {@link ToolOutputCacheConfig#sweepEveryEvents()} of them it has the cache swept. The count is saved with the thread
 * at least every 25 messages, so after a crash a sweep may come up to 25 messages late.
 *
 * <p>Thread-safe: called holding the memory's lock; its public methods take it.
 */
public final class ContextPressure implements MemoryLayer, RequestShaper {

    /** The layer's name: its tag in the block and its key in snapshots. */
    public static final String NAME = "pressure";
    /** The tool that reads a cached full output back (tools module). */
    public static final String READ_TOOL_OUTPUT = "read_tool_output";
    private static final Logger log = LoggerFactory.getLogger(ContextPressure.class);
    private static final int FORMAT_VERSION = 1;
    /** Tool call ids remembered as shortened to a reference; beyond this the oldest are forgotten. */
    private static final int MAX_SHORTENED = 1_000;
    /** The message count is marked for saving this often; a restart may count up to this many messages again. */
    private static final int SAVE_EVENTS_EVERY = 25;
    /** The requests {@link #history()} keeps. */
    public static final int HISTORY_SIZE = 100;
    /** The share of the window a page read back may fill up to when the high mark leaves no room. */
    static final double READ_BACK_CEILING = 0.97;
    /** A reference to a cached output has at most about this many characters: shorter results are not replaced by one. */
    private static final int REFERENCE_CHARS = 400;

    private final LayerContext context;
    private final ContextPressureConfig config;
    private final ToolOutputCache cache;
    private final PressureListener listener;

    // state saved with the thread
    private long events;
    private PressureLevel level = PressureLevel.SAFE;
    private int percent;
    /** The percent the block shows: of the request as sent, after pruning and any intervention. */
    private int sentPercent;
    private int interventions;
    /** What the last intervention did; {@code null} when none is known (a state saved before this was kept). */
    private Intervention lastIntervention;
    /** Tool call ids whose results are sent as a reference only, oldest first. */
    private final LinkedHashSet<String> shortened = new LinkedHashSet<>();

    // derived, not saved
    private int tokens;
    private int sentTokens;
    private int contextWindow;
    /** The characters of the pages read back ({@link #claimRoom}) since the last request was measured. */
    private long claimedChars;
    /** The tool specifications' tokens the last request was measured with. */
    private int measuredToolTokens;
    /** Each tool result's pruned versions, by identity: made once per result, kept while it is in the window. */
    private final Map<ToolExecutionResultMessage, Pruned> pruned = new IdentityHashMap<>();
    private String rendered = "";
    /**
     * Tokens per message, by identity, of the recent requests: a message is estimated once while it stays in the
     * window (a model's estimator may be costly, and a request is measured on every {@code messages()} call).
     */
    private final Map<ChatMessage, Integer> messageTokens = new IdentityHashMap<>();
    /** The tokens of the elements estimated lately (the one in the block, the ones tried for this request). */
    private final Map<String, Integer> elementTokens = new HashMap<>();
    /** The pressure of the last {@link #HISTORY_SIZE} requests, oldest first. */
    private final ArrayDeque<PressureSample> history = new ArrayDeque<>();
    /**
     * The messages of the last request counted, in order, with their tokens (two buffers used in turn): the next request
     * holds the same messages, one or two more at the end and maybe fewer at the start, so it is counted by comparing
     * references instead of looking each message up.
     */
    private ChatMessage[] counted = new ChatMessage[0];
    private int[] countedTokens = new int[0];
    private int countedSize;
    private ChatMessage[] counting = new ChatMessage[0];
    private int[] countingTokens = new int[0];

    private ContextPressure(LayerContext context, ContextPressureConfig config, ToolOutputCache cache,
                            PressureListener listener) {
        this.context = context;
        this.config = config;
        this.cache = cache;
        this.listener = listener;
    }

    /** Context pressure layers that keep full outputs in {@code cache} and tell {@code listener} of interventions. */
    public static MemoryLayerFactory factory(ContextPressureConfig config, ToolOutputCache cache, PressureListener listener) {
        Ensure.notNull(config, "config");
        Ensure.notNull(cache, "cache");
        Ensure.notNull(listener, "listener");
        return context -> new ContextPressure(Ensure.notNull(context, "context"), config, cache, listener);
    }

    /** The thresholds, pruner and budget this layer was created with. */
    public ContextPressureConfig config() {
        return config;
    }

    /**
     * Claims room in the next request for a page of a tool output read back ({@code read_tool_output}): the memory's
     * own answers are never pruned nor shortened, so a page must fit what is left. That is what the last request left
     * below the high mark, less what pages claimed since (the calls of one model answer run before the next request
     * is measured). When that is less than {@code least}, the turns before the request's newest count as room too, up to
     * 97% of the window: from the high mark on the next request moves them out (the newest turn stays, so what it
     * holds stays bounded by the high mark; the estimate may count fewer tokens than the model does). A token counts
     * {@code charsPerToken} characters. Before any request was measured, {@code wanted} is granted.
     *
     * @return the characters granted, at most {@code wanted}; 0 when less than {@code least} are left
     */
    public int claimRoom(int wanted, int least, int charsPerToken) {
        return context.write(() -> {
            if (contextWindow <= 0 || sentTokens <= 0) {
                return wanted;
            }
            long highMark = (long) (config.highThreshold() * contextWindow);
            long ceiling = (long) (READ_BACK_CEILING * contextWindow);
            long room = (highMark - sentTokens) * charsPerToken - claimedChars;
            int older = room < least ? olderTurnTokens() : 0; // counted only when a page needs it, not per request
            if (older > 0) {
                long afterMovingOut = (highMark - (sentTokens - older)) * charsPerToken - claimedChars;
                long belowCeiling = (ceiling - sentTokens) * charsPerToken - claimedChars;
                room = Math.min(afterMovingOut, belowCeiling);
            }
            if (room < least) {
                return 0;
            }
            int granted = (int) Math.min(wanted, room);
            claimedChars += granted;
            return granted;
        });
    }

    /** The tokens of the messages before the last user message of the request counted last ({@link #count}). */
    private int olderTurnTokens() {
        int newest = countedSize - 1;
        while (newest >= 0 && !(counted[newest] instanceof UserMessage)) {
            newest--;
        }
        int tokens = 0;
        for (int i = 0; i < newest; i++) {
            tokens += countedTokens[i];
        }
        return tokens;
    }

    /** The request measured without its tools (their tokens not known yet) went out with them: count them. */
    @Override
    public void toolSpecificationsSent(int tokens) {
        context.write(() -> {
            if (tokens > measuredToolTokens) {
                sentTokens += tokens - measuredToolTokens;
                measuredToolTokens = tokens;
            }
            return null;
        });
    }

    /** The pressure of the last request. */
    public PressureStats stats() {
        return context.read(() -> new PressureStats(level, percent, tokens, sentTokens, contextWindow, interventions));
    }

    /**
     * The pressure of this memory's last {@value #HISTORY_SIZE} requests, oldest first, each with what an intervention
     * did to it: the level over time. Kept in memory only (a memory loaded again starts with none).
     */
    public List<PressureSample> history() {
        return context.read(() -> List.copyOf(history));
    }

    /**
     * The full text of a cached tool output of this memory.
     *
     * @param name the entry name the pruned text gave ({@code tool-output-…})
     * @return empty when there is no such entry (never cached, or swept)
     */
    public Optional<String> toolOutput(String name) {
        Ensure.notNull(name, "name");
        return cache.read(context.key(), name.strip());
    }

    // ---- observing --------------------------------------------------------------------------------------------

    @Override
    public void onMessage(ChatMessage message) {
        context.write(() -> {
            events++;
            boolean sweep = events % cache.config().sweepEveryEvents() == 0;
            if (sweep || events % SAVE_EVENTS_EVERY == 0) {
                context.changed(); // the count alone is not worth a render and a save on every message
            }
            if (sweep) {
                cache.sweepLater(context.key());
            }
            return null;
        });
    }

    @Override
    public void onEvicted(List<EvictedMessage> messages) {
        List<String> gone = new ArrayList<>();
        for (EvictedMessage evicted : messages) {
            if (evicted.message() instanceof ToolExecutionResultMessage result && result.id() != null) {
                gone.add(result.id());
            }
        }
        if (!gone.isEmpty()) {
            context.write(() -> {
                if (shortened.removeAll(gone)) {
                    context.changed();
                }
                return null;
            });
        }
    }

    // ---- shaping ----------------------------------------------------------------------------------------------

    @Override
    public void shape(RequestDraft request) {
        contextWindow = request.contextWindow();
        claimedChars = 0; // the pages claimed are in this request now
        measuredToolTokens = request.toolTokens();
        List<ToolExecutionResultMessage> results = toolResults(request.messages());
        if (pruned.size() > 2 * results.size() + 8) {
            Set<ToolExecutionResultMessage> present = identitySet(results);
            pruned.keySet().retainAll(present);
        }
        for (ToolExecutionResultMessage result : results) {
            send(request, result, PruningMode.NORMAL);
        }
        // what the request carries beside its messages: the user message AiServices adds, what it adds to the user
        // message without storing it, and the tools
        int reserve = reserveForUserMessage(request) + request.userTokensUnseen() + request.toolTokens();
        int measured = count(request) + reserve;
        PressureLevel measuredLevel = config.levelOf(measured, contextWindow);
        int measuredPercent = percentOf(measured);
        int count = interventions;
        Intervention intervention = null;
        if (measuredLevel == PressureLevel.HIGH) {
            intervention = intervene(request, results, measuredPercent, count, reserve);
            count++;
        }
        int withoutElement = measured - elementTokens(request, rendered);
        int shownPercent = 0;
        if (measuredLevel != PressureLevel.SAFE) {
            Set<ChatMessage> sent = identitySet(request.messages());
            for (ToolExecutionResultMessage result : results) {
                if (sent.contains(request.sent(result))) { // not evicted by the intervention
                    send(request, result, measuredLevel.pruningMode());
                }
            }
            withoutElement = count(request) + reserve - elementTokens(request, rendered);
            // the element is part of the request it measures: its figure settles after a step or two
            shownPercent = percentOf(withoutElement);
            for (int step = 0; step < 3; step++) {
                int withElement = withoutElement + elementTokens(request,
                        element(measuredLevel, shownPercent, measuredPercent, count, intervention));
                if (percentOf(withElement) == shownPercent) {
                    break;
                }
                shownPercent = percentOf(withElement);
            }
        }
        sentTokens = withoutElement
                + elementTokens(request, element(measuredLevel, shownPercent, measuredPercent, count, intervention));
        tokens = measured;
        if (history.size() == HISTORY_SIZE) {
            history.removeFirst();
        }
        history.addLast(new PressureSample(context.clock().instant(), measuredLevel, measuredPercent, measured,
                sentTokens, contextWindow, intervention != null, intervention == null ? 0 : intervention.shortened(),
                intervention == null ? 0 : intervention.evicted()));
        forgetTokensOfAbsentMessages(request);
        update(measuredLevel, measuredPercent, shownPercent, count, intervention);
        if (intervention != null) {
            log.info("Context pressure of {} at {}% ({}/{} tokens): shortened {} older tool output(s), evicted {} turn(s);"
                    + " the request sent is {} tokens", context.key(), measuredPercent, measured, contextWindow,
                    intervention.shortened(), intervention.evicted(), sentTokens);
            try {
                listener.intervened(new PressureEvent(context.key(), measured, sentTokens, contextWindow,
                        intervention.shortened(), intervention.evicted(), count));
            } catch (RuntimeException e) {
                log.warn("A pressure listener failed on an intervention for {}", context.key(), e);
            }
        }
    }

    private int percentOf(int requestTokens) {
        return (int) Math.round(100.0 * requestTokens / contextWindow);
    }

    private static <T> Set<T> identitySet(List<? extends T> items) {
        Set<T> set = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(items);
        return set;
    }

    /** What one intervention did. */
    private record Intervention(int shortened, int evicted) {
    }

    /**
     * Shortens older results, then evicts the oldest turns, until the request measures under the high mark with its
     * tool results pruned normally, so that the next request starts under it too; the hyper-aggressive pruning applied
     * afterwards takes this request further below.
     */
    private Intervention intervene(RequestDraft request, List<ToolExecutionResultMessage> results, int measuredPercent,
                                   int count, int reserve) {
        double highMark = config.highThreshold() * contextWindow;
        // the element's size with what an intervention may say (its counts' digits aside)
        int elementDelta = reserve + elementTokens(request, element(PressureLevel.HIGH, measuredPercent, measuredPercent,
                count + 1, new Intervention(1, 1))) - elementTokens(request, rendered);
        Set<ToolExecutionResultMessage> latest = latestResults(request.messages());
        int shortenedNow = 0;
        List<String> newlyShortened = new ArrayList<>();
        for (ToolExecutionResultMessage result : results) {
            if (count(request) + elementDelta < highMark) {
                break;
            }
            Pruned entry = prunedOf(result);
            if (latest.contains(result) || isShortened(result) || !entry.prunable
                    || result.text().length() <= REFERENCE_CHARS) {
                continue;
            }
            if (result.id() != null) {
                newlyShortened.add(result.id());
            }
            entry.shortened = true;
            send(request, result, PruningMode.NORMAL);
            shortenedNow++;
        }
        int evicted = 0;
        while (count(request) + elementDelta >= highMark && request.evictOldestTurn()) {
            evicted++;
        }
        if (!newlyShortened.isEmpty()) {
            context.write(() -> {
                shortened.addAll(newlyShortened);
                while (shortened.size() > MAX_SHORTENED) {
                    shortened.remove(shortened.iterator().next());
                }
                context.changed();
                return null;
            });
        }
        return new Intervention(shortenedNow, evicted);
    }

    private void update(PressureLevel newLevel, int newPercent, int newSentPercent, int newInterventions,
                        Intervention intervention) {
        if (newLevel != level) {
            context.events().onPressureChanged(new PressureChanged(context.key(), level.textName(), newLevel.textName(),
                    newPercent));
        }
        boolean visible = newLevel != level
                || newLevel != PressureLevel.SAFE && (newPercent != percent || newSentPercent != sentPercent);
        if (visible || newInterventions != interventions) {
            context.write(() -> {
                level = newLevel;
                percent = newPercent;
                sentPercent = newSentPercent;
                interventions = newInterventions;
                if (intervention != null) {
                    lastIntervention = intervention;
                }
                context.changed();
                return null;
            });
        } else {
            percent = newPercent; // shown nowhere but in the stats: not worth a render and a save
            sentPercent = newSentPercent;
        }
    }

    /**
     * Sends {@code result} pruned in {@code mode} when it is large, or as a reference when it was shortened under
     * pressure.
     */
    private void send(RequestDraft request, ToolExecutionResultMessage result, PruningMode mode) {
        Pruned entry = prunedOf(result);
        if (!entry.prunable) {
            return;
        }
        ToolExecutionResultMessage message = entry.shortened || isShortened(result) ? entry.reference()
                : count(request, result) < config.largeOutputTokens(mode, contextWindow) ? result : entry.in(mode);
        if (message != result) {
            request.replace(result, message);
        }
    }

    private Pruned prunedOf(ToolExecutionResultMessage result) {
        Pruned entry = pruned.get(result);
        if (entry == null) {
            entry = new Pruned(result);
            pruned.put(result, entry);
        }
        return entry;
    }

    private boolean isShortened(ToolExecutionResultMessage result) {
        return result.id() != null && shortened.contains(result.id());
    }

    private static List<ToolExecutionResultMessage> toolResults(List<ChatMessage> messages) {
        List<ToolExecutionResultMessage> results = null; // a chat has none: nothing allocated
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof ToolExecutionResultMessage result) {
                if (results == null) {
                    results = new ArrayList<>();
                }
                results.add(result);
            }
        }
        return results == null ? List.of() : results;
    }

    /** The results after the last AI message: those answering the latest tool call, which the model is reading now. */
    private static Set<ToolExecutionResultMessage> latestResults(List<ChatMessage> messages) {
        Set<ToolExecutionResultMessage> latest = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = messages.size() - 1; i >= 0 && !(messages.get(i) instanceof AiMessage); i--) {
            if (messages.get(i) instanceof ToolExecutionResultMessage result) {
                latest.add(result);
            }
        }
        return latest;
    }

    /** The request's tokens as {@link RequestDraft#tokens()} counts them, each message estimated once. */
    private int count(RequestDraft request) {
        int total = 0;
        SystemMessage system = request.systemMessage();
        if (system != null) {
            total += count(request, system);
        }
        List<ChatMessage> messages = request.messages();
        int size = messages.size();
        if (counting.length < size) {
            counting = new ChatMessage[size * 2];
            countingTokens = new int[size * 2];
        }
        int next = 0; // where in the last request to look for the next message
        for (int i = 0; i < size; i++) {
            ChatMessage message = messages.get(i);
            int at = next;
            while (at < countedSize && counted[at] != message) {
                at++;
            }
            int tokens;
            if (at < countedSize) {
                tokens = countedTokens[at];
                next = at + 1;
            } else {
                tokens = count(request, message);
            }
            counting[i] = message;
            countingTokens[i] = tokens;
            total += tokens;
        }
        java.util.Arrays.fill(counting, size, counting.length, null); // no message kept past its request
        ChatMessage[] swapped = counted;
        int[] swappedTokens = countedTokens;
        counted = counting;
        countedTokens = countingTokens;
        countedSize = size;
        counting = swapped;
        countingTokens = swappedTokens;
        return total;
    }

    private int count(RequestDraft request, ChatMessage message) {
        Integer tokens = messageTokens.get(message);
        if (tokens == null) {
            tokens = request.tokens(message);
            messageTokens.put(message, tokens);
        }
        return tokens;
    }

    /** Forgets the counts of messages that left, once they are as many as those of the request. */
    private void forgetTokensOfAbsentMessages(RequestDraft request) {
        List<ChatMessage> messages = request.messages();
        if (messageTokens.size() > 2 * (messages.size() + 1) + 8) {
            Set<ChatMessage> present = identitySet(messages);
            if (request.systemMessage() != null) {
                present.add(request.systemMessage());
            }
            messageTokens.keySet().retainAll(present);
        }
    }

    /**
     * Tokens to reserve for a user message the request will carry but the draft does not hold yet: {@code AiServices}
     * (LangChain4j 1.19) reads the memory's messages before adding the user's new message to it, and sends that message
     * after them. A draft that ends with an answer (an AI message without tool calls), or is empty, is such a first
     * request of a turn; the user's previous message stands in for the new one's size.
     */
    private int reserveForUserMessage(RequestDraft request) {
        List<ChatMessage> messages = request.messages();
        if (!messages.isEmpty() && !(messages.get(messages.size() - 1) instanceof AiMessage ai
                && !ai.hasToolExecutionRequests())) {
            return 0;
        }
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage user) {
                return count(request, user);
            }
        }
        return 0;
    }

    /** The tokens {@code element} adds to the system message. */
    private int elementTokens(RequestDraft request, String element) {
        if (element.isEmpty()) {
            return 0;
        }
        Integer known = elementTokens.get(element);
        if (known == null) {
            if (elementTokens.size() >= 8) {
                elementTokens.clear();
            }
            known = request.tokens(SystemMessage.from(element)) - request.tokens(SystemMessage.from("."));
            elementTokens.put(element, known);
        }
        return known;
    }

    /** One tool result's pruned versions, made when first needed. */
    private final class Pruned {
        private final ToolExecutionResultMessage original;
        private final Map<PruningMode, ToolExecutionResultMessage> versions = new EnumMap<>(PruningMode.class);
        private ToolExecutionResultMessage reference;
        private String entry;
        private final boolean prunable;
        private boolean shortened;
        private int lines = -1;
        /** Whether the versions made so far name {@code read_tool_output}: the model had it. */
        private boolean pointsToReader;

        Pruned(ToolExecutionResultMessage original) {
            this.original = original;
            this.prunable = original.hasSingleText() && original.text() != null
                    && (original.toolName() == null || !config.unprunedTools().contains(original.toolName()))
                    && !context.isMemoryToolResult(original);
        }

        ToolExecutionResultMessage in(PruningMode mode) {
            followReader();
            return versions.computeIfAbsent(mode, m -> {
                PrunedOutput output = config.pruner().prune(original.text(), m, null, context.maxAnalyzedChars());
                lines = output.originalLines();
                if (!output.pruned()) {
                    return original;
                }
                ToolExecutionResultMessage copy = copy(output.text() + pointer(" The full output is kept: "));
                context.events().onOutputPruned(new OutputPruned(context.key(), original.toolName(), m.name(),
                        original.text().length(), copy.text().length()));
                return copy;
            });
        }

        ToolExecutionResultMessage reference() {
            followReader();
            if (reference == null) {
                String text = original.text();
                int count = lines >= 0 ? lines : LineIndex.count(text);
                reference = copy("[Output of " + original.toolName() + " (" + count + " lines, " + text.length()
                        + " chars) moved out of the context under pressure." + pointer(" ") + "]");
            }
            return reference;
        }

        /** Forgets the versions made when the model had {@code read_tool_output} and now has not, or the other way. */
        private void followReader() {
            boolean readable = context.offersTool(READ_TOOL_OUTPUT);
            if (readable != pointsToReader) {
                versions.clear();
                reference = null;
                pointsToReader = readable;
            }
        }

        /**
         * {@code lead} and the call that reads the whole output back, when the model has that tool; "" else (the
         * output is kept all the same: memory_search and the inspector find it).
         */
        private String pointer(String lead) {
            String entry = entry();
            return pointsToReader ? lead + READ_TOOL_OUTPUT + "(\"" + entry + "\") reads it." : "";
        }

        private String entry() {
            if (entry == null) {
                entry = cache.keep(context.key(), original.id(), original.toolName(), original.text());
            }
            return entry;
        }

        private ToolExecutionResultMessage copy(String text) {
            return ToolExecutionResultMessage.builder()
                    .id(original.id())
                    .toolName(original.toolName())
                    .text(text)
                    .isError(original.isError())
                    .attributes(original.attributes())
                    .build();
        }
    }

    // ---- rendering and state ----------------------------------------------------------------------------------

    /**
     * The element shown at moderate and high: the percent of the request as sent (after pruning and any intervention),
     * and at high the percent measured before the intervention and what it did ({@code intervention}; {@code null}
     * when not known).
     */
    private String element(PressureLevel shownLevel, int shownPercent, int measuredPercent, int shownInterventions,
                           Intervention intervention) {
        if (shownLevel == PressureLevel.SAFE) {
            return "";
        }
        PruningLimits limits = config.pruner().limits(shownLevel.pruningMode());
        StringBuilder body = new StringBuilder("Context ").append(shownPercent).append("% full (of ")
                .append(contextWindow).append(" tokens)");
        if (shownLevel == PressureLevel.HIGH) {
            body.append(" after the memory intervened at ").append(measuredPercent).append('%');
        } else if (measuredPercent > shownPercent) {
            // the level is of the request with outputs pruned normally: say why the percent sent is lower
            body.append(", ").append(measuredPercent).append("% before tool outputs were cut harder");
        }
        body.append(": tool outputs of ").append(config.largeOutputTokens(shownLevel.pruningMode(), contextWindow))
                .append(" tokens or more and over ").append(limits.maxLines()).append(" lines are cut to their first ")
                .append(limits.headLines()).append(" and last ").append(limits.tailLines()).append('.');
        if (shownLevel == PressureLevel.HIGH) {
            body.append(' ').append(intervened(intervention)).append(" (").append(shownInterventions)
                    .append(shownInterventions == 1 ? " intervention)." : " interventions).");
        }
        // only what this memory holds: a chat assistant is not told of a coding agent's session tools
        List<String> reliefs = context.reliefs();
        if (!reliefs.isEmpty()) {
            body.append(" To free space: ").append(String.join("; ", reliefs)).append('.');
        }
        return open(shownLevel, shownPercent) + body + "</" + NAME + ">";
    }

    /** What an intervention did, as the element tells it: only what happened. */
    private static String intervened(Intervention intervention) {
        if (intervention == null) {
            return "The memory intervened";
        }
        int shortenedNow = intervention.shortened();
        int evicted = intervention.evicted();
        if (shortenedNow == 0 && evicted == 0) {
            return "Nothing older was left to shorten or move out: the current turn fills it";
        }
        StringBuilder text = new StringBuilder("The memory");
        if (shortenedNow > 0) {
            text.append(" replaced ").append(shortenedNow)
                    .append(shortenedNow == 1 ? " older tool output" : " older tool outputs").append(" by references");
        }
        if (evicted > 0) {
            text.append(shortenedNow > 0 ? " and" : "").append(" moved the oldest ")
                    .append(evicted == 1 ? "turn" : evicted + " turns").append(" out");
        }
        return text.toString();
    }

    /** The element cut to its figures, for a block with little room: the level stays explained by its percents. */
    private static String brief(PressureLevel shownLevel, int shownPercent, int measuredPercent) {
        StringBuilder body = new StringBuilder("Context ").append(shownPercent).append("% full");
        if (shownLevel == PressureLevel.HIGH) {
            body.append(" after the memory intervened at ").append(measuredPercent).append('%');
        } else if (measuredPercent > shownPercent) {
            body.append(", ").append(measuredPercent).append("% before tool outputs were cut harder");
        }
        return open(shownLevel, shownPercent) + body + ".</" + NAME + ">";
    }

    private static String open(PressureLevel shownLevel, int shownPercent) {
        return "<" + NAME + " level=\"" + shownLevel.textName() + "\" percent=\"" + shownPercent + "\">";
    }

    @Override
    public String render(int maxChars) {
        String full = element(level, sentPercent, percent, interventions, lastIntervention);
        String shown;
        if (full.length() <= maxChars) {
            shown = full;
        } else {
            String brief = brief(level, sentPercent, percent);
            String briefest = open(level, sentPercent) + "Context " + sentPercent + "% full.</" + NAME + ">";
            shown = brief.length() <= maxChars ? brief : briefest.length() <= maxChars ? briefest : "";
        }
        rendered = shown;
        return shown;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return LayerScope.THREAD;
    }

    /** Last in the block. */
    @Override
    public int order() {
        return 100;
    }

    /** Served first: when it shows, the model must see it. */
    @Override
    public int priority() {
        return 95;
    }

    @Override
    public LayerBudget budget() {
        return config.budget();
    }

    @Override
    public JsonNode snapshot() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("formatVersion", FORMAT_VERSION);
        node.put("events", events);
        node.put("level", level.textName());
        node.put("percent", percent);
        node.put("sentPercent", sentPercent);
        node.put("interventions", interventions);
        if (lastIntervention != null) {
            node.put("lastShortened", lastIntervention.shortened());
            node.put("lastEvicted", lastIntervention.evicted());
        }
        shortened.forEach(node.putArray("shortened")::add);
        return node;
    }

    @Override
    public void restore(JsonNode snapshot) {
        events = 0;
        level = PressureLevel.SAFE;
        percent = 0;
        sentPercent = 0;
        interventions = 0;
        lastIntervention = null;
        shortened.clear();
        if (snapshot == null || snapshot.path("formatVersion").asInt(-1) != FORMAT_VERSION) {
            log.warn("Ignoring an unreadable pressure snapshot of {}; pressure starts at safe", context.key());
            return;
        }
        events = Math.max(0, snapshot.path("events").asLong(0));
        for (PressureLevel candidate : PressureLevel.values()) {
            if (candidate.textName().equals(snapshot.path("level").asText())) {
                level = candidate;
            }
        }
        percent = Math.max(0, snapshot.path("percent").asInt(0));
        sentPercent = Math.max(0, snapshot.path("sentPercent").asInt(percent)); // saved since it is shown
        interventions = Math.max(0, snapshot.path("interventions").asInt(0));
        if (snapshot.path("lastShortened").canConvertToInt() && snapshot.path("lastEvicted").canConvertToInt()) {
            lastIntervention = new Intervention(Math.max(0, snapshot.path("lastShortened").asInt()),
                    Math.max(0, snapshot.path("lastEvicted").asInt()));
        }
        for (JsonNode id : snapshot.path("shortened")) {
            if (id.isTextual()) {
                shortened.add(id.asText());
            }
        }
    }
}
