package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static dev.workingmemory.crystal.CrystalStoreContract.note;
import static org.assertj.core.api.Assertions.assertThat;

class RecordLogTest {

    @TempDir
    Path root;

    private static Stored stored(long seq, String id, String text) {
        return new Stored(seq, note(id, "alice", text));
    }

    @Test
    void should_find_the_last_record_and_cut_a_torn_tail_across_long_lines() throws IOException {
        RecordLog log = new RecordLog(root);
        String longText = "Größe 😀 ".repeat(2_000); // well beyond one 8 KB read
        log.append("alice", List.of(stored(1, "a", longText), stored(2, "b", longText)));
        Path file = log.fileOf("alice");
        Files.writeString(file, "{\"seq\":3,\"id\":\"c\",\"text\":\"" + "x".repeat(9_000), StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);

        assertThat(log.last(file)).map(Stored::seq).contains(2L);
        assertThat(log.read(file).records()).extracting(Stored::seq).containsExactly(1L, 2L);

        log.append("alice", List.of(stored(4, "d", "after the tear")));

        RecordLog.Contents contents = log.read(file);
        assertThat(contents.records()).extracting(Stored::seq).containsExactly(1L, 2L, 4L);
        assertThat(contents.records().get(0).crystal().text()).isEqualTo(longText);
        assertThat(contents.length()).isEqualTo(Files.size(file));
        assertThat(log.last(file)).map(Stored::seq).contains(4L);
    }

    @Test
    void should_rewrite_keeping_the_latest_version_of_each_id_and_remove_an_emptied_scope() throws IOException {
        RecordLog log = new RecordLog(root);
        log.append("alice", List.of(stored(1, "a", "first a"), stored(2, "b", "only b"), stored(3, "a", "second a")));

        log.rewrite("alice", stored -> !stored.crystal().id().equals("b"));

        assertThat(log.read("alice").records()).extracting(stored -> stored.crystal().text())
                .containsExactly("second a");
        assertThat(log.files()).hasSize(1);

        log.rewrite("alice", stored -> false);

        assertThat(log.fileOf("alice").getParent()).doesNotExist();
        assertThat(log.files()).isEmpty();
        assertThat(log.last(log.fileOf("alice"))).isEmpty();
    }
}
