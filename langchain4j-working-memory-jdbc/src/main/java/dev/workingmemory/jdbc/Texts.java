package dev.workingmemory.jdbc;

import dev.workingmemory.internal.Wtf8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * How Java strings are kept in {@code bytea} columns: in {@link Wtf8 WTF-8}, which is UTF-8 for every well-formed string
 * and also carries unpaired surrogates (each as its own three-byte sequence), as the file store keeps its documents.
 * PostgreSQL's {@code text} refuses NUL and the driver's UTF-8 encoding replaces unpaired surrogates, yet a store
 * returns exactly the string it was given.
 *
 * <p>Thread-safe (stateless).
 */
final class Texts {

    private Texts() {
    }

    static byte[] encode(String text) {
        return Wtf8.encode(text);
    }

    /** The string {@link #encode} wrote; bytes written otherwise (by hand) read with U+FFFD for what is malformed. */
    static String decode(byte[] bytes) {
        return Wtf8.decodeReplacing(bytes);
    }

    /** SHA-256 of the encoded text: a fixed-size primary key for texts of any length (keys, memory ids). */
    static byte[] hash(byte[] encoded) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(encoded);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
