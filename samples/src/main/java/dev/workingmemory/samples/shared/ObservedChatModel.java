package dev.workingmemory.samples.shared;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.Set;

/**
 * Wraps a {@link ChatModel} to show the {@link ConversationPrinter} every request before it is sent, so the
 * printed {@code <working_memory>} block is exactly the one the model receives. Thread-safe if the delegate is.
 */
public final class ObservedChatModel implements ChatModel {

    private final ChatModel delegate;
    private final ConversationPrinter printer;

    public ObservedChatModel(ChatModel delegate, ConversationPrinter printer) {
        this.delegate = delegate;
        this.printer = printer;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        printer.modelRequest(request);
        return delegate.chat(request);
    }

    @Override
    public ChatRequestParameters defaultRequestParameters() {
        return delegate.defaultRequestParameters();
    }

    @Override
    public Set<Capability> supportedCapabilities() {
        return delegate.supportedCapabilities();
    }
}
