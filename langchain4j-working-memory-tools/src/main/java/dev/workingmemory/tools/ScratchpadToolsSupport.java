package dev.workingmemory.tools;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.scratchpad.Scratchpad;
import dev.workingmemory.scratchpad.ScratchpadConfig;

/**
 * What the two scratchpad tools share. Thread-safe (stateless).
 */
final class ScratchpadToolsSupport {

    private ScratchpadToolsSupport() {
    }

    static ScratchpadConfig configOf(WorkingMemoryProvider provider) {
        return provider.scratchpadConfig().orElseThrow(() -> new IllegalArgumentException(
                "The WorkingMemoryProvider was built without a scratchpad, so there is nothing for "
                        + WorkingMemoryTools.UPDATE_WORKING_MEMORY + " to update; WorkingMemoryTools.all(provider) leaves it out"));
    }

    static void ensureWritable(Scratchpad scratchpad) {
        if (scratchpad.isReadOnly()) {
            throw new ToolInputException("The scratchpad is read-only: this application does not let you change it,"
                    + " so nothing was changed.", "Do not call " + WorkingMemoryTools.UPDATE_WORKING_MEMORY
                    + " again; keep what you wanted to note in your answer and continue with the task.");
        }
    }
}
