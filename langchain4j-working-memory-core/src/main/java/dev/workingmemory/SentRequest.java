package dev.workingmemory;

import dev.langchain4j.data.message.ChatMessage;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.render.LayerShare;

import java.time.Instant;
import java.util.List;

/**
 * The request a memory last handed to the model ({@link WorkingMemory#lastRequest()}): what {@code messages()}
 * returned, with the block's layout behind it. {@code AiServices} sends these messages, then the user's new message
 * when the memory does not hold it yet (the first model call of a turn).
 *
 * <p>Immutable and thread-safe.
 *
 * @param time          when {@code messages()} returned it, by the provider's clock
 * @param systemMessage the text of the system message as sent, the block included; {@code ""} when there was none
 * @param block         the {@code <working_memory>} block exactly as sent; {@code ""} when every layer was empty
 * @param blockBudget   the block's budget in characters
 * @param layers        each layer's share of the block, in block order
 * @param messages      the messages after the system message, as sent (tool results pruned, shortened or evicted
 *                      under context pressure)
 * @param tokens        the estimated tokens of the system message and {@code messages}, by the provider's
 *                      {@code TokenCountEstimator}
 */
public record SentRequest(Instant time, String systemMessage, String block, int blockBudget, List<LayerShare> layers,
                          List<ChatMessage> messages, int tokens) {

    /** Copies the lists; a null object component or negative {@code tokens} is an {@link IllegalArgumentException}. */
    public SentRequest {
        Ensure.notNull(time, "time");
        Ensure.notNull(systemMessage, "systemMessage");
        Ensure.notNull(block, "block");
        layers = List.copyOf(Ensure.notNull(layers, "layers"));
        messages = List.copyOf(Ensure.notNull(messages, "messages"));
        Ensure.notNegative(tokens, "tokens");
    }
}
