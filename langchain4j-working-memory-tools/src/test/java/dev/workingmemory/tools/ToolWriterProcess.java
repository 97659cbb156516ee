package dev.workingmemory.tools;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreMemoryConfig;
import dev.workingmemory.notes.NotesConfig;
import dev.workingmemory.store.FileWorkingMemoryStore;

import java.nio.file.Path;

/**
 * A second application instance for the durability tests: writes core memory through the {@code core_memory_update}
 * tool, or notes through {@code working_memory_note}, and prints {@code ack <i> <answer>} after each call returns.
 *
 * <p>Arguments: store directory, memory id, text prefix, count, {@code append}, {@code replace} or {@code note}, and
 * {@code hold} (wait to be killed, never flushing nor closing) or {@code close} (close the provider and exit).
 */
public final class ToolWriterProcess {

    /** A block roomy enough for the 1,000 lines of two writers. */
    static final CoreMemoryConfig ROOMY = CoreMemoryConfig.builder().block("progress", 100_000).build();
    /** Limits high enough that no note of two writers is archived. */
    static final NotesConfig ROOMY_NOTES = NotesConfig.builder().softLimit(1_000).hardLimit(2_000).build();

    private ToolWriterProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        String memoryId = args[1];
        String prefix = args[2];
        int count = Integer.parseInt(args[3]);
        String operation = args[4];
        boolean hold = args[5].equals("hold");
        WorkingMemoryProvider provider = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(directory)).coreMemory(ROOMY).notes(ROOMY_NOTES).build();
        CoreMemoryTools tools = new CoreMemoryTools(provider);
        NoteTools notes = new NoteTools(provider);
        for (int i = 0; i < count; i++) {
            String answer = operation.equals("note")
                    ? notes.workingMemoryNote(memoryId, prefix + i, null, null)
                    : tools.coreMemoryUpdate(memoryId, "progress", operation, prefix + i);
            System.out.println("ack " + i + " " + answer);
            System.out.flush();
        }
        if (hold) {
            Thread.sleep(Long.MAX_VALUE);
        }
        provider.close();
    }
}
