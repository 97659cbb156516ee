package dev.workingmemory.crystal;

import org.apache.lucene.index.IndexWriter;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * The crystal index refuses one document, and would refuse it every time: retried, it would hold back every crystal
 * behind it on the one indexer thread (every user's). It is either
 * <ul>
 *   <li>an {@link IllegalArgumentException} of Lucene's {@link IndexWriter} for that document (a term over 32,766
 *       bytes, a vector of another dimension than its field's, ...), the writer still open and without a tragic
 *       exception: Lucene's indexing chain then drops the document and stays usable (an exception it calls
 *       aborting, from its stored fields or vectors writers, makes a tragic event instead and closes the writer);
 *       or</li>
 *   <li>a document that cannot be built from the crystal or its vector (a time beyond the ±292,000 years its
 *       microseconds hold, a vector with a non-finite value): building it is computation only.</li>
 * </ul>
 * Anything else (an {@link IOException}, an {@code AlreadyClosedException} after a tragic event, an interrupt) is
 * not a refusal: the document may go in once it clears, and the write is retried.
 *
 * <p>Immutable.
 */
final class RefusedByIndex extends IllegalArgumentException {

    RefusedByIndex(String reason, Throwable cause) {
        super(reason, cause);
    }

    /** One write of one document to {@code writer}. */
    interface Write {
        void run() throws IOException;
    }

    /** @return the document {@code build} makes; @throws RefusedByIndex when it cannot be built */
    static <T> T build(Supplier<T> build) {
        try {
            return build.get();
        } catch (RuntimeException e) {
            throw new RefusedByIndex(e.toString(), e);
        }
    }

    /**
     * Runs one document's write; @throws RefusedByIndex when the writer refuses that document (and stays usable), else
     * what the write threw
     */
    static void write(IndexWriter writer, Write write) throws IOException {
        try {
            write.run();
        } catch (IllegalArgumentException e) {
            if (writer.isOpen() && writer.getTragicException() == null) {
                throw e instanceof RefusedByIndex refused ? refused : new RefusedByIndex(e.toString(), e);
            }
            throw e;
        }
    }
}
