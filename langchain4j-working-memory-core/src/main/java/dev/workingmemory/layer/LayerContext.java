package dev.workingmemory.layer;

import dev.langchain4j.data.message.ChatMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.event.WorkingMemoryListener;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * What a {@link MemoryLayer} gets from the memory that holds it: the lock that guards its state,
 * a way to report changes, and the clock.
 *
 * <p>Each scope ({@link LayerScope}) of a memory has one lock shared by all its layers. A layer
 * reads its state inside {@link #read} and changes it inside {@link #write} or {@link #writeDurably},
 * calling {@link #changed()} when something did change: the block is then re-rendered and the scope's
 * state is saved, behind the turn ({@code write}) or before the call returns ({@code writeDurably}).
 *
 * <p><b>Writes are operations that may run again.</b> When another instance of the application saved the
 * same scope in between, the memory reloads the stored state and runs the write actions it has not saved yet
 * again on it, in their order, so that an append appends to what is stored now and nothing is lost
 * (DESIGN.md, "No lost updates"). A write action must therefore be a function of the layer's state and of
 * the arguments it captured, with no effect outside the layer; the value it returns the second time is not
 * seen by anybody, except for {@code writeDurably}, which returns the value of the run that was saved.
 *
 * <p>Thread-safe.
 */
public interface LayerContext {

    /** The default of {@link #maxAnalyzedChars()}. */
    int DEFAULT_MAX_ANALYZED_CHARS = 64 * 1024;

    /** The key of the memory that created the layer. For a resource-scoped layer only the resource counts. */
    MemoryKey key();

    /** Runs {@code action} holding the scope's lock. */
    <T> T read(Supplier<T> action);

    /**
     * Runs {@code action} holding the scope's lock. When it called {@link #changed()}, the scope is saved behind
     * the turn (the provider's save delay bounds what a crash can lose): use it for state the layer derives by
     * itself, such as entities found in tool results.
     */
    <T> T write(Supplier<T> action);

    /**
     * Runs {@code action} holding the scope's lock and returns once the scope's state, this change included, is
     * in the store: use it for what a tool or a caller is told was saved. On a conflict with another instance
     * the stored state is reloaded and {@code action} runs again on it (an exception it then throws, such as a
     * limit now exceeded, reaches the caller and nothing is saved).
     *
     * @throws dev.workingmemory.store.WorkingMemoryStoreException when the store fails; the layer is then put
     *                                                             back as it was before {@code action}
     */
    <T> T writeDurably(Supplier<T> action);

    /** Marks the layer's state as changed. Call it inside {@link #write}. */
    void changed();

    /**
     * Marks the layer's rendering as out of date although nothing in its snapshot changed: its state lives outside
     * the scope's snapshot (a log in the store it appended to) and nothing is to be saved. Call it holding the lock
     * ({@link #read} or {@link #write}).
     */
    void refreshed();

    /** The provider's clock, for every time the layer records. */
    Clock clock();

    /**
     * Where the layer reports what it did ({@link WorkingMemoryListener}): the provider's listeners, each guarded (one
     * that throws is logged). Events reported while a write is applied again after a conflict are dropped, so each is
     * heard once. The default hears nothing.
     */
    default WorkingMemoryListener events() {
        return WorkingMemoryListener.NONE;
    }

    /**
     * The {@link MemoryLayer#relief() reliefs} of the other layers of this layer's scope that offer one, in block order.
     * Call it from {@link MemoryLayer#render}: a layer that reads them is rendered again whenever a layer of its scope
     * changes, not only when it changes itself. The default: none.
     */
    default List<String> reliefs() {
        return List.of();
    }

    /**
     * Whether {@code message} is the result of one of the memory's own tools ({@code core_memory_read},
     * {@code memory_search}, {@code read_tool_output}, ...; see {@link dev.workingmemory.MemoryToolNames}): the memory's
     * answer about itself, which a layer neither mines (entities, session items, salience) nor prunes. The default
     * knows no such tool.
     */
    default boolean isMemoryToolResult(ChatMessage message) {
        return false;
    }

    /**
     * Whether the model of this layer's memory is offered the tool {@code toolName}, so that a text the model reads may
     * tell it to call the tool: a model that calls a tool it was not given makes {@code AiServices} abort the call. The
     * memory knows it exactly once the provider's {@code chatModelListener()} saw a request of the memory (the tools of
     * its last request). Until then the tools offered are those that every request it saw of the provider's memories
     * carried, and before it saw any (or for a model without the listener) the memory's registered tools
     * ({@link dev.workingmemory.MemoryToolNames}: the tools module's beans made for the provider). A resource-scoped layer is shared by the resource's memories: the tool must be offered to each of them
     * that the listener saw. A layer that asks from {@link MemoryLayer#render} or {@link MemoryLayer#relief} is rendered
     * again when the answer may have changed. The default: true.
     */
    default boolean offersTool(String toolName) {
        return true;
    }

    /**
     * Runs {@code task} off the request path, on the provider's saver thread, after {@code delay} (zero: as soon as
     * that thread is free): derived work a layer need not do inside {@code add} or {@code messages()}, such as scoring
     * a message. The task takes the lock itself ({@link #read}, {@link #write}), must not throw, and may find the
     * memory closed meanwhile ({@code IllegalStateException}). Work queued when the provider closes is dropped, like
     * state not saved yet.
     *
     * @return false, running nothing, when the provider does work within each call ({@code saveDelay(Duration.ZERO)})
     * or is closing: the layer then does the work itself, now. The default: false.
     */
    default boolean runLater(Runnable task, java.time.Duration delay) {
        return false;
    }

    /**
     * The most characters of one message a layer analyses on the request path (in {@code add} and {@code messages()}):
     * a longer text is read as its first and last halves of this many and the first error lines between them
     * ({@link AnalyzedText#of}), so that one huge message costs bounded work. What is said stays whole in the window
     * and the stores; only the analysis is bounded. The default is {@link #DEFAULT_MAX_ANALYZED_CHARS}.
     */
    default int maxAnalyzedChars() {
        return DEFAULT_MAX_ANALYZED_CHARS;
    }
}
