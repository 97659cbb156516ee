package dev.workingmemory.tools;

import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.render.BlockText;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Function;

/**
 * Runs one tool call against the memory of one memory id and guarantees a text answer: whatever the input,
 * the call never throws. Validation problems ({@link ToolInputException}) and rejections by the memory
 * ({@link IllegalArgumentException}, {@link IllegalStateException}) and a store that cannot save (then nothing
 * changed: the memory undoes a write it cannot save) become {@code "Error: … How to fix: …"};
 * any other failure is logged and reported the same way. Every answer is {@link BlockText#clean cleaned}, like the
 * block: no controls, no unpaired surrogates. The memory is used through
 * {@link WorkingMemoryProvider#withMemory}, which runs the call again when the memory was evicted meanwhile.
 *
 * <p>Thread-safe (stateless).
 */
final class ToolRunner {

    private static final Logger log = LoggerFactory.getLogger(ToolRunner.class);

    private ToolRunner() {
    }

    /**
     * @param tool            the tool's name, for logs
     * @param provider        where the memory comes from
     * @param memoryId        the {@code @ToolMemoryId} of the call
     * @param fixForRejection the advice appended when the memory rejects the input with an
     *                        {@link IllegalArgumentException} whose message says what was wrong
     * @param action          the tool's work; returns the answer for the model
     */
    static String run(String tool, WorkingMemoryProvider provider, Object memoryId, String fixForRejection,
                      Function<WorkingMemory, String> action) {
        if (memoryId == null) {
            log.warn("Tool '{}' was called without a memory id", tool);
            return error("The tool received no memory id, so it cannot tell whose memory to use.",
                    "Continue without this tool; the application must register it with AiServices, which passes the memory id.");
        }
        try {
            // the answer quotes what the memory holds and what the model sent: the memory's rule for its own texts
            return BlockText.clean(provider.withMemory(memoryId, action));
        } catch (ToolInputException e) {
            log.debug("Tool '{}' rejected its input for {}: {}", tool, memoryId, e.problem());
            return error(e.problem(), e.fix());
        } catch (IllegalArgumentException e) {
            log.debug("Tool '{}' was rejected by the memory of {}: {}", tool, memoryId, e.getMessage());
            return error(sentence(e.getMessage()), fixForRejection);
        } catch (WorkingMemoryStoreException e) {
            log.warn("Tool '{}' could not use the store of the memory of {}", tool, memoryId, e);
            // a read (memory_search) fails here as a write does: say neither "saved" nor "found"
            return error("The memory's store could not be used (" + sentence(e.getMessage()) + ") Nothing was changed.",
                    "Call " + tool + " again in a moment; if it fails again, tell the user that the memory is not"
                            + " available right now and continue without it.");
        } catch (IllegalStateException e) {
            log.debug("Tool '{}' cannot run for {}: {}", tool, memoryId, e.getMessage());
            return error(sentence(e.getMessage()) + " Nothing was changed.",
                    "Do not call " + tool + " again for now; continue with the task.");
        } catch (RuntimeException e) {
            log.warn("Tool '{}' failed for {}", tool, memoryId, e);
            return error("The tool failed unexpectedly (" + e.getClass().getSimpleName() + ").",
                    "Call " + tool + " once more; if it fails again, continue without it.");
        }
    }

    /** {@code "Error: <problem> How to fix: <fix>"}, {@link BlockText#clean cleaned} (a problem may quote input). */
    static String error(String problem, String fix) {
        String text = "Error: " + sentence(problem);
        return BlockText.clean(fix == null || fix.isBlank() ? text : text + " How to fix: " + sentence(fix));
    }

    /** {@code text} trimmed and ending with a full stop (or another sentence end). */
    static String sentence(String text) {
        String trimmed = text == null || text.isBlank() ? "unknown problem" : text.strip();
        char last = trimmed.charAt(trimmed.length() - 1);
        return last == '.' || last == '!' || last == '?' ? trimmed : trimmed + ".";
    }
}
