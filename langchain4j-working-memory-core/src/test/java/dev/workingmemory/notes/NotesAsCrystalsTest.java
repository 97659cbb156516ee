package dev.workingmemory.notes;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.internal.Passages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Notes as crystals: a note longer than a passage, by its estimated tokens, is kept as its passages. */
class NotesAsCrystalsTest {

    private static final Instant TIME = Instant.parse("2026-03-12T09:00:00Z");

    private final CrystalStore crystals = EmbeddedCrystalStore.builder().embeddingModel(TestEmbeddingModels.miniLm()).build();
    private final NotesAsCrystals notes = new NotesAsCrystals(crystals);

    @AfterEach
    void close() {
        crystals.close();
    }

    @Test
    void should_keep_a_note_as_passages_sized_by_its_tokens_in_any_script() {
        // 140 Japanese characters are 140 tokens, as 560 characters of English: more than a passage
        Note japanese = new Note(TIME, 0.8, List.of(), "ユーザーの猫は十二歳で、先月から食欲が落ちている。".repeat(4)
                + "来週の火曜日に動物病院で血液検査を受ける予定。結果が出たら、食事の内容を見直すつもりだと言っていた。");
        Note english = new Note(TIME, 0.8, List.of(), "The user's cat is twelve and has eaten less since last month. "
                .repeat(5)); // 310 characters: one passage, as before
        notes.added("alice", japanese);
        notes.added("alice", english);
        String scope = MemoryKey.of("alice").crystalScope();

        List<String> ids = NotesAsCrystals.ids(scope, japanese);
        assertThat(ids).hasSizeGreaterThan(1).allMatch(id -> id.contains("#"));
        List<Crystal> passages = ids.stream().map(crystals::get).map(Optional::orElseThrow).toList();
        assertThat(passages).allSatisfy(passage -> {
            assertThat(Passages.size(passage.text())).isLessThanOrEqualTo(Passages.MAX_SIZE);
            assertThat(passage.piece()).isTrue();
        });
        assertThat(String.join("", passages.stream().map(Crystal::text).toList())).isEqualTo(japanese.text());

        assertThat(NotesAsCrystals.ids(scope, english)).containsExactly(NotesAsCrystals.id(scope, english));
        assertThat(crystals.get(NotesAsCrystals.id(scope, english))).map(Crystal::text).hasValue(english.text());
    }
}
