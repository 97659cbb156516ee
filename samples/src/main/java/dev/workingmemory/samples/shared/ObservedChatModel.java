package dev.workingmemory.samples.shared;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.List;
import java.util.Set;

/**
 * Wraps a {@link ChatModel} to show the {@link ConversationPrinter} every request before it is sent, so the
 * printed {@code <working_memory>} block is exactly the one the model receives, and to tell the memory's
 * {@code chatModelListener()} which tools each request carries (it counts their tokens, and the memory names only
 * those tools). Thread-safe if the delegate is.
 */
public final class ObservedChatModel implements ChatModel {

    private final ChatModel delegate;
    private final ConversationPrinter printer;
    private final List<ChatModelListener> listeners;

    /** @param memoryListener the provider's {@code chatModelListener()} */
    public ObservedChatModel(ChatModel delegate, ConversationPrinter printer, ChatModelListener memoryListener) {
        this.delegate = delegate;
        this.printer = printer;
        this.listeners = List.of(memoryListener);
    }

    /** Without the memory's listener: the memory does not see the tools sent with the requests. */
    public ObservedChatModel(ChatModel delegate, ConversationPrinter printer) {
        this.delegate = delegate;
        this.printer = printer;
        this.listeners = List.of();
    }

    @Override
    public List<ChatModelListener> listeners() {
        return listeners;
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
