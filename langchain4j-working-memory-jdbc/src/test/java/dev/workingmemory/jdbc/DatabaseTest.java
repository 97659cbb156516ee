package dev.workingmemory.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test on a fresh schema of the test server ({@link TestDatabase}), dropped after each test; skipped without one. */
abstract class DatabaseTest {

    protected TestDatabase database;

    @BeforeEach
    void createSchema() {
        database = TestDatabase.create();
    }

    @AfterEach
    void dropSchema() {
        if (database != null) {
            database.close();
        }
    }
}
