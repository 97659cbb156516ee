package dev.workingmemory.crystal;

import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** A {@link CrystalIndex} in memory for each test, and the crystals the tests of an index put into it. */
abstract class InMemoryIndexTest {

    protected CrystalIndex index;

    @BeforeEach
    void openIndex() throws IOException {
        index = CrystalIndex.open(null, new EnglishAnalyzer());
    }

    @AfterEach
    void closeIndex() throws IOException {
        index.close();
    }

    /** A note of {@code scope}, all at one time and importance. */
    static Crystal note(String id, String scope, String text) {
        return new Crystal(id, scope, CrystalKind.NOTE, Instant.parse("2026-03-12T14:30:00Z"), 0.5, List.of(), text,
                null);
    }

    /** The key the lists of a search name crystal {@code id} by. */
    static long key(String id) {
        return VectorKeys.of(CrystalWriter.vectorId(id));
    }
}
