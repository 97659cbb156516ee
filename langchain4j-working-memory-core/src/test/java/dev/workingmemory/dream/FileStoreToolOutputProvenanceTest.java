package dev.workingmemory.dream;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ToolOutputProvenanceContract} on the file store and the crystal directory a provider opens beside it, and
 * {@link StoredTextContract} on the file store: {@code MEMORY.md} and {@code scratch.md} hold the cleaned text.
 */
class FileStoreToolOutputProvenanceTest implements ToolOutputProvenanceContract, StoredTextContract {

    @TempDir
    Path dir;
    private FileWorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        store = new FileWorkingMemoryStore(dir);
    }

    @Override
    public WorkingMemoryStore store() {
        return store;
    }

    @Override
    public WorkingMemoryStore restarted() {
        return new FileWorkingMemoryStore(dir);
    }

    @Test
    void should_write_memory_md_and_scratch_md_as_utf8_with_the_replacement_character_and_no_control() throws IOException {
        should_keep_notes_core_memory_scratchpad_and_state_as_cleaned_through_a_restart();

        Path resource = store.resourceDirectory(MemoryKey.of("maya"));
        for (String file : new String[] {"MEMORY.md", "scratch.md"}) {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(resource.resolve(file)))).toString();
            assertThat(text).as(file).contains("Größe 😀 abc\uFFFDdfg").doesNotContain("abc?d")
                    .doesNotContainPattern("[\\x00-\\x08\\x0B-\\x1F\\x7F-\\x9F\\u202A-\\u202E\\u2066-\\u2069]");
        }
    }
}
