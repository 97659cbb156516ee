package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link CrystalDocValues}: what the index gives back of a crystal is what was put, read in any order. */
class CrystalDocValuesTest extends InMemoryIndexTest {

    private static final Crystal WHOLE = new Crystal("turn-1#0", "alice", CrystalKind.TURN,
            Instant.parse("2026-03-12T14:30:00.123456Z"), 0.75, List.of("keywords-only", "tag ü 😀"),
            "Déjà vu: the sprint moved to April 5 😀", "chat:42", "User: when is the sprint?\nAssistant: April 5");
    private static final Crystal BARE = new Crystal("note-1", "alice", CrystalKind.NOTE,
            Instant.parse("1970-01-01T00:00:00Z").minusSeconds(86_400), 0.0, List.of(), "x", null, null);
    private static final Crystal CONTEXT_ONLY = new Crystal("note-2", "alice", CrystalKind.NOTE,
            Instant.parse("2999-12-31T23:59:59.999999Z"), 1.0, List.of(""), "y", null, "the exchange");

    @Test
    void should_give_back_every_field_of_a_crystal_and_its_seq() throws IOException {
        index.put(new Stored(7, WHOLE));
        index.put(new Stored(Long.MAX_VALUE, BARE));
        index.put(new Stored(1, CONTEXT_ONLY));
        index.refresh();

        assertThat(index.stored("alice")).containsExactly(new Stored(1, CONTEXT_ONLY), new Stored(7, WHOLE),
                new Stored(Long.MAX_VALUE, BARE));
        assertThat(index.get("turn-1#0")).contains(WHOLE);
        assertThat(index.fetch("alice", List.of(key("note-1")))).containsEntry(key("note-1"), BARE);
        assertThat(index.seqs("alice")).containsEntry("note-2", 1L).containsEntry("turn-1#0", 7L);
    }

    @Test
    void should_read_documents_asked_in_any_order_across_segments_aligned_with_them() throws IOException {
        for (int segment = 0; segment < 3; segment++) {
            for (int i = 0; i < 4; i++) {
                index.put(new Stored(segment * 10L + i, note("n-" + segment + "-" + i, "alice", "text " + i)));
            }
            index.refresh(); // a segment per batch
        }
        IndexSearcher searcher = index.searchers().acquire();
        try {
            ScoreDoc[] hits = searcher.search(CrystalIndex.scopeQuery("alice"), 100).scoreDocs;
            assertThat(searcher.getIndexReader().leaves()).hasSizeGreaterThan(1);
            int[] docs = new int[hits.length + 2];
            for (int i = 0; i < hits.length; i++) {
                docs[i] = hits[hits.length - 1 - i].doc; // last document first
            }
            docs[hits.length] = hits[0].doc; // asked twice, once right after itself
            docs[hits.length + 1] = hits[0].doc;

            Stored[] values = CrystalDocValues.read(searcher.getIndexReader(), CrystalIndex.VALUE, docs);

            for (int i = 0; i < docs.length; i++) {
                Stored expected = CrystalDocValues.read(searcher.getIndexReader(), CrystalIndex.VALUE, docs[i]);
                assertThat(values[i]).as("document %d", docs[i]).isEqualTo(expected);
            }
            assertThat(Arrays.stream(values).map(value -> value.crystal().id()).distinct()).hasSize(12);
            assertThat(values[0].seq()).isEqualTo(23); // the last document is the last one put
        } finally {
            index.searchers().release(searcher);
        }
    }

    @Test
    void should_call_a_document_without_a_value_a_corrupt_index() throws IOException {
        index.put(new Stored(1, BARE));
        index.refresh();
        IndexSearcher searcher = index.searchers().acquire();
        try {
            int doc = searcher.search(CrystalIndex.scopeQuery("alice"), 1).scoreDocs[0].doc;

            assertThatThrownBy(() -> CrystalDocValues.read(searcher.getIndexReader(), "no_such_field", doc))
                    .isInstanceOf(CorruptIndexException.class)
                    .hasMessageContaining("holds no no_such_field");
        } finally {
            index.searchers().release(searcher);
        }
    }

    static Stream<Arguments> oddIdsAndScopes() {
        return Stream.of(
                Arguments.of("#x", "alice"),
                Arguments.of("turn-1#x", "alice#x"),
                Arguments.of("i".repeat(Crystal.MAX_ID_LENGTH), "s".repeat(Crystal.MAX_ID_LENGTH)),
                Arguments.of("a\u0000b", "alice\u0000bob"),
                Arguments.of("../../etc/passwd", "../bob"),
                Arguments.of(" padded ", "\u00e9l\u00e8ve 😀"));
    }

    @ParameterizedTest
    @MethodSource("oddIdsAndScopes")
    void should_give_back_a_crystal_of_any_id_and_scope_only_to_its_scope(String id, String scope)
            throws IOException {
        Crystal crystal = new Crystal(id, scope, CrystalKind.NOTE, Instant.parse("2026-03-12T14:30:00Z"), 0.5,
                List.of(), "a note", null);
        index.put(new Stored(1, crystal));
        index.put(new Stored(2, note("other", "bob", "bob's note")));
        index.refresh();

        assertThat(index.get(id)).contains(crystal);
        assertThat(index.stored(scope)).containsExactly(new Stored(1, crystal));
        assertThat(index.fetch(scope, List.of(key(id), key("other")))).containsOnlyKeys(key(id));
        assertThat(index.fetch("bob", List.of(key(id)))).as("another user's scope").isEmpty();
        assertThat(index.fetch(scope.toUpperCase() + "x", List.of(key(id)))).isEmpty();
    }

    @Test
    void should_encode_and_decode_alike() throws IOException {
        for (Crystal crystal : List.of(WHOLE, BARE, CONTEXT_ONLY)) {
            Stored stored = new Stored(42, crystal);
            assertThat(CrystalDocValues.decode(CrystalDocValues.encode(stored))).isEqualTo(stored);
        }
    }

    @Test
    void should_give_back_a_nul_and_unpaired_surrogates_exactly() throws IOException {
        Crystal odd = new Crystal("c\uDC00", "alice\uD800", CrystalKind.NOTE, Instant.parse("2026-03-12T14:30:00Z"),
                0.4, List.of("tag \u0000", "\uDBFF"), "a \u0000 and an unpaired \uD800 surrogate \uD83D\uDE00 \uDE00",
                "source \uD800", "\uDFFF");

        assertThat(CrystalDocValues.decode(CrystalDocValues.encode(new Stored(1, odd))).crystal()).isEqualTo(odd);
    }

    /** Indexes written with Lucene's UTF-8 strings before read the same: a well-formed crystal's bytes are those. */
    @Test
    void should_write_a_well_formed_crystal_as_lucene_strings_did() throws IOException {
        for (Crystal crystal : List.of(WHOLE, BARE, CONTEXT_ONLY)) {
            ByteBuffersDataOutput out = new ByteBuffersDataOutput();
            out.writeVLong(9);
            out.writeString(crystal.id());
            out.writeString(crystal.scope());
            out.writeString(crystal.kind().textName());
            out.writeZLong(CrystalIndex.micros(crystal.time()));
            out.writeLong(Double.doubleToLongBits(crystal.importance()));
            out.writeVInt(crystal.tags().size());
            for (String tag : crystal.tags()) {
                out.writeString(tag);
            }
            out.writeString(crystal.text());
            out.writeByte((byte) ((crystal.source() == null ? 0 : 1) | (crystal.context() == null ? 0 : 2)));
            if (crystal.source() != null) {
                out.writeString(crystal.source());
            }
            if (crystal.context() != null) {
                out.writeString(crystal.context());
            }

            assertThat(CrystalDocValues.encode(new Stored(9, crystal))).isEqualTo(new BytesRef(out.toArrayCopy()));
        }
    }

    @Test
    void should_read_a_value_inside_a_larger_array() throws IOException {
        Stored stored = new Stored(3, WHOLE);
        BytesRef value = CrystalDocValues.encode(stored);
        byte[] larger = new byte[value.length + 10];
        System.arraycopy(value.bytes, value.offset, larger, 5, value.length);

        assertThat(CrystalDocValues.decode(new BytesRef(larger, 5, value.length))).isEqualTo(stored);
    }

    @Test
    void should_refuse_a_text_that_runs_past_the_value() {
        BytesRef value = CrystalDocValues.encode(new Stored(1, WHOLE));
        // the last text (the context) cut short, in an array that goes on past the value
        BytesRef cut = new BytesRef(value.bytes, value.offset, value.length - 3);

        assertThatThrownBy(() -> CrystalDocValues.decode(cut)).isInstanceOf(IOException.class)
                .hasMessageContaining("ends inside a text");
    }
}
