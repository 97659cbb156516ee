package dev.workingmemory.dream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;

import java.util.List;

/**
 * The salience levels of a resource (seed 000's hormones) as a layer: it scores each user and assistant message and
 * each tool result ({@link ToolExecutionResultMessage#isError()} marks a tool error) with the configured
 * {@link SalienceScorer}, keeps the levels in the resource's snapshot, and renders nothing: the levels reach the model
 * through the state's Mood line and the dream prompt's weighting. The provider's scheduler takes the due auto-notes
 * ({@link #takeAutoNotes()}) every {@link DreamConfig#consolidationInterval()} and appends them to the notes log, off
 * the request path (a layer write may run again after a conflict, an append must not).
 *
 * <p>Thread-safe: every method holds the resource's lock.
 */
public final class SalienceLayer implements MemoryLayer {

    public static final String NAME = "salience";
    private static final LayerBudget BUDGET = LayerBudget.of(0, 1);

    private final LayerContext context;
    private final Salience salience;

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

    /** The levels now, decayed to the memory clock's time. */
    public SalienceLevels levels() {
        return context.read(salience::levels);
    }

    /** The Mood line's text for the levels now. */
    public String mood() {
        return context.read(salience::mood);
    }

    /**
     * The auto-notes due now (a level above 0.7, raised since its last note, at most one per hormone per interval);
     * each is returned once. The caller appends them to the notes log.
     */
    public List<AutoNote> takeAutoNotes() {
        return context.write(() -> {
            List<AutoNote> due = salience.autoNotes();
            if (!due.isEmpty()) {
                context.changed();
            }
            return due;
        });
    }

    @Override
    public void onMessage(ChatMessage message) {
        SalienceSource source;
        String text;
        if (message instanceof UserMessage user) {
            source = SalienceSource.USER_MESSAGE;
            text = userText(user);
        } else if (message instanceof AiMessage ai) {
            source = SalienceSource.ASSISTANT_MESSAGE;
            text = ai.text();
        } else if (message instanceof ToolExecutionResultMessage result && !context.isMemoryToolResult(result)) {
            // the memory's own answers are no event of the conversation (read_tool_output's pages repeat old errors)
            source = Boolean.TRUE.equals(result.isError()) ? SalienceSource.TOOL_ERROR : SalienceSource.TOOL_RESULT;
            text = result.text();
        } else {
            return;
        }
        if (text != null && !text.isBlank() && salience.raised(source, text)) {
            context.changed();
        }
    }

    private static String userText(UserMessage user) {
        StringBuilder out = new StringBuilder();
        for (Content content : user.contents()) {
            if (content instanceof TextContent part) {
                out.append(out.length() > 0 ? "\n" : "").append(part.text());
            }
        }
        return out.toString();
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
