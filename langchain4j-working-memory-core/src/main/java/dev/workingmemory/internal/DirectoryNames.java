package dev.workingmemory.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Maps any string (a memory key, a scope) to one safe directory name: a readable prefix of the string (lower-case
 * {@code a-z0-9-_}, other characters replaced by {@code _}, at most 40 characters) followed by the SHA-256 hex of
 * its UTF-16 code units. So {@code ""}, {@code ../../x}, NUL bytes or 5,000 characters all map to one name that
 * stays inside its parent directory, and two strings never share a name.
 *
 * <p>Thread-safe (stateless).
 */
public final class DirectoryNames {

    /** Looking the algorithm up costs about as much as hashing a short text. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(DirectoryNames::sha256);

    private static final int MAX_PREFIX_LENGTH = 40;
    /** The length of the hex hash every name ends with. */
    public static final int HASH_LENGTH = 64;

    private DirectoryNames() {
    }

    /** Readable prefix + "-" + SHA-256 hex of the UTF-16 code units (injective, unlike UTF-8 for unpaired surrogates). */
    public static String of(String key) {
        Ensure.notNull(key, "key");
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < key.length() && prefix.length() < MAX_PREFIX_LENGTH; i++) {
            char c = Character.toLowerCase(key.charAt(i));
            boolean safe = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            prefix.append(safe ? c : '_');
        }
        String hash = sha256Hex(key);
        return prefix.isEmpty() ? hash : prefix + "-" + hash;
    }

    /** The SHA-256 hex of the UTF-16 code units of {@code text}. */
    public static String sha256Hex(String text) {
        // the code units big-endian, unpaired surrogates included (a charset would replace them); a loop, as a
        // CharBuffer view copies char by char through bounds checks (most of a past turn's id in a profile)
        byte[] utf16 = new byte[text.length() * 2];
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            utf16[2 * i] = (byte) (c >>> 8);
            utf16[2 * i + 1] = (byte) c;
        }
        return HexFormat.of().formatHex(sha256(utf16));
    }

    /** The SHA-256 of {@code bytes}, by this thread's digest. */
    static byte[] sha256(byte[] bytes) {
        return SHA_256.get().digest(bytes); // digest() resets it for the next use
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
