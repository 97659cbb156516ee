package dev.workingmemory.dream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.MessageText;
import dev.workingmemory.layer.AnalyzedText;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The salience levels of a resource (seed 000's hormones) as a layer: it scores each user and assistant message and
 * each tool result ({@link ToolExecutionResultMessage#isError()} marks a tool error; the memory's own tools' results
 * are no event) with the configured {@link SalienceScorer}, keeps the levels in the resource's snapshot, and renders
 * nothing: the levels reach the model through the state's Mood line and the dream prompt's weighting. The provider's
 * scheduler takes the due auto-notes ({@link #takeAutoNotes()}) every {@link DreamConfig#consolidationInterval()} and
 * appends them to the notes log, off the request path (a layer write may run again after a conflict, an append must
 * not).
 *
 * <p><b>Off the request path.</b> Nothing on the request path reads the levels, so a message is only queued there:
 * it is scored behind the turn on the provider's saver thread ({@link LayerContext#runLater}), within a second of the
 * first queued message or at once when {@value #DRAIN_BATCH} wait, each raise applied as of the message's time.
 * Reading the levels ({@link #levels()}, {@link #mood()}, {@link #takeAutoNotes()}) scores what still waits first.
 * When {@value #MAX_PENDING} messages wait (the saver is behind), or the provider saves within each call
 * ({@code saveDelay(Duration.ZERO)}), the thread that adds a message scores them. Queued messages not scored when the
 * provider closes are lost with the rest of the state not saved yet.
 *
 * <p>Thread-safe: every method holds the resource's lock; the scoring itself holds none.
 */
public final class SalienceLayer implements MemoryLayer {

    /** The layer's name: its tag in the block and its key in snapshots. */
    public static final String NAME = "salience";
    /** Messages waiting that have them scored at once. */
    static final int DRAIN_BATCH = 32;
    /** Messages waiting that have the adding thread score them: the saver is behind. */
    static final int MAX_PENDING = 1_024;
    private static final Duration DRAIN_DELAY = Duration.ofSeconds(1);
    private static final LayerBudget BUDGET = LayerBudget.of(0, 1);
    private static final Logger log = LoggerFactory.getLogger(SalienceLayer.class);

    private final LayerContext context;
    private final Salience salience;
    /** The messages not scored yet, oldest first. Guarded by the resource's lock. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /**
     * Whether a delayed drain is queued and has not started. Guarded by the resource's lock. One is enough: a message
     * that comes while it waits is scored by it, within the second; scheduling one per emptied queue piled up
     * thousands of tasks in the saver's queue when messages came fast.
     */
    private boolean delayedDrainQueued;

    /** A message waiting to be scored: its text as analysed, and when it came. */
    private record Pending(SalienceSource source, String text, Instant time) {
    }

    private SalienceLayer(LayerContext context, Salience salience) {
        this.context = context;
        this.salience = salience;
    }

    /** Salience layers (resource-scoped) configured by {@code config}. */
    public static MemoryLayerFactory factory(DreamConfig config) {
        Ensure.notNull(config, "config");
        return new MemoryLayerFactory() {
            @Override
            public LayerScope scope() {
                return LayerScope.RESOURCE;
            }

            @Override
            public MemoryLayer create(LayerContext context) {
                Salience salience = Salience.builder().clock(context.clock()).scorer(config.salienceScorer())
                        .halfLife(config.salienceHalfLife()).autoNoteInterval(config.autoNoteInterval()).build();
                return new SalienceLayer(context, salience);
            }
        };
    }

    /** The levels now, decayed to the memory clock's time (the messages waiting scored first). */
    public SalienceLevels levels() {
        drain();
        return context.read(salience::levels);
    }

    /** The Mood line's text for the levels now (the messages waiting scored first). */
    public String mood() {
        drain();
        return context.read(salience::mood);
    }

    /**
     * The auto-notes due now (a level above 0.7, raised since its last note, at most one per hormone per interval);
     * each is returned once. The caller appends them to the notes log.
     */
    public List<AutoNote> takeAutoNotes() {
        drain();
        return context.write(() -> {
            List<AutoNote> due = salience.autoNotes();
            if (!due.isEmpty()) {
                context.changed();
            }
            return due;
        });
    }

    /** How many messages wait to be scored. */
    int pending() {
        return context.read(pending::size);
    }

    /**
     * Scores the messages waiting, without the lock, and applies their raises in one write (which runs again, with the
     * same scores, on state reloaded after a conflict).
     */
    private void drain() {
        drain(false);
    }

    /** The drain queued a second after a first message waited. */
    private void delayedDrain() {
        drain(true);
    }

    private void drain(boolean delayed) {
        try {
            List<Pending> batch = context.read(() -> {
                if (delayed) {
                    delayedDrainQueued = false;
                }
                return takePending();
            });
            if (batch.isEmpty()) {
                return;
            }
            List<SalienceLevels> scores = score(batch);
            context.write(() -> {
                apply(batch, scores);
                return null;
            });
        } catch (IllegalStateException closed) {
            log.debug("Salience of {} not scored: the memory was closed meanwhile", context.key(), closed);
        } catch (RuntimeException e) {
            log.warn("Could not score the messages of {} waiting for salience", context.key(), e);
        }
    }

    /** {@link #drain()} by the thread holding the lock, which adds a message. */
    private void drainHere() {
        List<Pending> batch = takePending();
        apply(batch, score(batch));
    }

    private List<Pending> takePending() {
        List<Pending> batch = List.copyOf(pending);
        pending.clear();
        return batch;
    }

    private List<SalienceLevels> score(List<Pending> batch) {
        List<SalienceLevels> scores = new ArrayList<>(batch.size());
        for (Pending message : batch) {
            try {
                scores.add(salience.score(message.source(), message.text()));
            } catch (RuntimeException e) {
                log.warn("Salience scorer failed on a {} of {}", message.source().label(), context.key(), e);
                scores.add(SalienceLevels.NONE);
            }
        }
        return scores;
    }

    /** Applies scored messages; called holding the lock. */
    private void apply(List<Pending> batch, List<SalienceLevels> scores) {
        boolean raised = false;
        for (int i = 0; i < batch.size(); i++) {
            Pending message = batch.get(i);
            raised |= salience.raiseAt(message.time(), scores.get(i), message.source(), message.text());
        }
        if (raised) {
            context.changed();
        }
    }

    @Override
    public void onMessage(ChatMessage message) {
        SalienceSource source;
        String text;
        if (message instanceof UserMessage user) {
            source = SalienceSource.USER_MESSAGE;
            text = MessageText.said(user);
        } else if (message instanceof AiMessage ai) {
            source = SalienceSource.ASSISTANT_MESSAGE;
            text = ai.text();
        } else if (message instanceof ToolExecutionResultMessage result && !context.isMemoryToolResult(result)) {
            // the memory's own answers are no event of the conversation (read_tool_output's pages repeat old errors)
            source = Boolean.TRUE.equals(result.isError()) ? SalienceSource.TOOL_ERROR : SalienceSource.TOOL_RESULT;
            text = MessageText.of(result);
        } else {
            return;
        }
        if (text == null || text.isBlank()) {
            return;
        }
        pending.addLast(new Pending(source, AnalyzedText.of(text, context.maxAnalyzedChars()), context.clock().instant()));
        int waiting = pending.size();
        if (waiting >= MAX_PENDING) {
            drainHere(); // the saver is behind: the thread that adds scores
        } else if (waiting == 1 && !delayedDrainQueued) {
            delayedDrainQueued = context.runLater(this::delayedDrain, DRAIN_DELAY);
            if (!delayedDrainQueued) {
                drainHere(); // no saver thread: scored within the call, as saves are
            }
        } else if (waiting == DRAIN_BATCH && !context.runLater(this::drain, Duration.ZERO)) {
            drainHere();
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return LayerScope.RESOURCE;
    }

    @Override
    public int order() {
        return 5;
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public LayerBudget budget() {
        return BUDGET;
    }

    /** Renders nothing: see the class comment. */
    @Override
    public String render(int maxChars) {
        return "";
    }

    @Override
    public JsonNode snapshot() {
        return salience.snapshot();
    }

    @Override
    public void restore(JsonNode snapshot) {
        salience.restore(snapshot);
    }
}
