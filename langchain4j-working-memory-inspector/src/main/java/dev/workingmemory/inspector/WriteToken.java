package dev.workingmemory.inspector;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The token that write actions need. Compared in constant time over SHA-256 digests, so that neither the content nor
 * the length of the configured token shows in how long a wrong guess takes.
 *
 * <p>Immutable and thread-safe.
 */
final class WriteToken {

    /** The header a write action sends the token in (never a query parameter: those end up in logs and history). */
    static final String HEADER = "X-Inspector-Token";
    /** A token shorter than this is refused: a write action forgets users. */
    static final int MIN_LENGTH = 16;

    private final byte[] digest;

    private WriteToken(byte[] digest) {
        this.digest = digest;
    }

    /**
     * @throws IllegalArgumentException for a token shorter than {@value #MIN_LENGTH} characters or with blanks around it
     */
    static WriteToken of(String token) {
        if (token == null || token.length() < MIN_LENGTH || !token.strip().equals(token)) {
            throw new IllegalArgumentException("The inspector's token must be at least " + MIN_LENGTH
                    + " characters without leading or trailing blanks"
                    + (token == null ? "" : ", was " + token.length() + " characters long"));
        }
        return new WriteToken(sha256(token));
    }

    boolean matches(String presented) {
        return presented != null && MessageDigest.isEqual(digest, sha256(presented));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
