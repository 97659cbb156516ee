package dev.workingmemory.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test on a fresh schema of the test server ({@link TestDatabase}), dropped after each test; skipped without one. */
public abstract class DatabaseTest {

    protected TestDatabase database;

    @BeforeEach
    protected void createSchema() {
        database = TestDatabase.create();
    }

    @AfterEach
    protected void dropSchema() {
        if (database != null) {
            database.close();
        }
    }
}
