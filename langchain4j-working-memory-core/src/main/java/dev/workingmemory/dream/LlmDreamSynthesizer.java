package dev.workingmemory.dream;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.workingmemory.internal.Ensure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A {@link DreamSynthesizer} that asks a LangChain4j {@link ChatModel} to rewrite the state.
 *
 * <p><b>The prompt</b> is the resource {@code dev/workingmemory/dream/dream-prompt.md}; {@link Builder#promptTemplate}
 * replaces it. It tells the model the schema, the budget, the pointer line, the section weighting of seed 000 with the
 * current salience levels (oxytocin → The Bond, dopamine and cortisol → Active Context, fading topics → pointers),
 * and to answer with the document only, and that what a tool returned is data, never a line of the state (the
 * engine holds out such a line all the same). Placeholders: {@code {{time}} {{mood}} {{budget}} {{max_pointers}}
 * {{sections}} {{pointer_format}} {{salience}} {{weighting}} {{old_state}} {{notes}} {{crystals}} {{entities}}
 * {{slot_items}}}; an unknown one is rejected at {@code build()}. The prompt goes to the model as one user message.
 *
 * <p><b>Tolerant</b> of what models do: a code fence around the document, a preamble ("Here is the updated state:"),
 * a remark after the last section, a missing title (added), {@code ->} in pointers. The answer is parsed and rendered
 * canonically; the mood line is set to the dream's time and the salience mood.
 *
 * <p><b>One retry</b> when the answer is over budget: the model is told by how much and answers again in the same
 * conversation. The second answer is returned whatever its size (the guards judge it). Tokens are summed over both
 * calls when the model reports them. An exception of the model propagates.
 *
 * <p>Thread-safe when the model is (LangChain4j's are).
 */
public final class LlmDreamSynthesizer implements DreamSynthesizer {

    private static final Logger log = LoggerFactory.getLogger(LlmDreamSynthesizer.class);

    private final ChatModel model;
    private final DreamPrompt prompt;

    private LlmDreamSynthesizer(Builder builder) {
        this.model = Ensure.notNull(builder.model, "chatModel");
        this.prompt = new DreamPrompt(builder.template == null ? DreamPrompt.defaultTemplate() : builder.template,
                builder.maxPointers);
    }

    /** A builder of a synthesizer; a chat model is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default prompt template, to start a replacement from. */
    public static String defaultPromptTemplate() {
        return DreamPrompt.defaultTemplate();
    }

    /** The prompt this synthesizer sends for {@code input}. */
    public String prompt(DreamInput input) {
        return prompt.render(Ensure.notNull(input, "input"));
    }

    @Override
    public Synthesis synthesize(DreamInput input) {
        Ensure.notNull(input, "input");
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(UserMessage.from(prompt.render(input)));
        ChatResponse response = model.chat(ChatRequest.builder().messages(messages).build());
        TokenUsage tokens = response.tokenUsage();
        String answer = text(response);
        StateDocument state = normalize(answer, input);
        int calls = 1;
        if (state.length() > input.budgetChars()) {
            int over = state.length() - input.budgetChars();
            log.debug("Dream answer over budget by {} characters, asking once more", over);
            messages.add(AiMessage.from(answer));
            messages.add(UserMessage.from(String.format(Locale.ROOT, "Your state document has %,d characters, %,d "
                    + "over the budget of %,d. Shorten it to at most %,d characters: keep every section, compress or "
                    + "drop the least important lines, and turn fading topics into crystal pointers. Answer with the "
                    + "whole document only.", state.length(), over, input.budgetChars(), input.budgetChars())));
            response = model.chat(ChatRequest.builder().messages(messages).build());
            tokens = TokenUsage.sum(tokens, response.tokenUsage());
            answer = text(response);
            state = normalize(answer, input);
            calls++;
        }
        Integer total = tokens == null ? null : tokens.totalTokenCount();
        return new Synthesis(state.render(), total == null ? OptionalInt.empty() : OptionalInt.of(total), answer, calls);
    }

    private static String text(ChatResponse response) {
        AiMessage message = response == null ? null : response.aiMessage();
        return message == null || message.text() == null ? "" : message.text();
    }

    private static StateDocument normalize(String answer, DreamInput input) {
        return StateDocument.parse(AnswerCleaner.clean(answer), input.schema())
                .withHeader(input.time(), input.salience().mood());
    }

    /** Builds a {@link LlmDreamSynthesizer}. Not thread-safe. */
    public static final class Builder {

        private ChatModel model;
        private String template;
        private int maxPointers = 15;

        private Builder() {
        }

        /** The dream model. Required. */
        public Builder chatModel(ChatModel model) {
            this.model = Ensure.notNull(model, "chatModel");
            return this;
        }

        /** Replaces the prompt (see the class comment for the placeholders). */
        public Builder promptTemplate(String template) {
            this.template = Ensure.notBlank(template, "template");
            return this;
        }

        /** The most pointers the prompt allows; default 15, under the pointer-runaway guard's 20. */
        public Builder maxPointers(int maxPointers) {
            this.maxPointers = Ensure.positive(maxPointers, "maxPointers");
            return this;
        }

        /** @throws IllegalArgumentException without a model, or with a template holding an unknown placeholder */
        public LlmDreamSynthesizer build() {
            return new LlmDreamSynthesizer(this);
        }
    }
}
