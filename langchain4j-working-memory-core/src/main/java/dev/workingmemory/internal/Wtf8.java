package dev.workingmemory.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * WTF-8: how the stores write a Java string as bytes so that any string comes back exactly. It is UTF-8 for every
 * well-formed string (so text written as UTF-8 before reads the same), and an unpaired surrogate, which has no UTF-8
 * form (an encoder writes {@code ?} for it), is written as the three bytes of its own code point ({@code ED A0 80} for
 * U+D800), bytes UTF-8 forbids. The file store keeps documents and the notes log so; the JDBC store its {@code bytea}
 * texts; the inspector reads an id sent so.
 *
 * <p>Thread-safe (stateless).
 */
public final class Wtf8 {

    private Wtf8() {
    }

    /** {@code text} as WTF-8: its UTF-8 bytes when it holds no unpaired surrogate. */
    public static byte[] encode(String text) {
        if (!Utf16.hasUnpairedSurrogate(text)) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 16);
        int run = 0; // the start of the well-formed characters not yet written
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                out.writeBytes(text.substring(run, i).getBytes(StandardCharsets.UTF_8));
                out.write(0xE0 | c >> 12);
                out.write(0x80 | c >> 6 & 0x3F);
                out.write(0x80 | c & 0x3F);
                run = i + 1;
            }
        }
        out.writeBytes(text.substring(run).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /**
     * The string {@link #encode} wrote as {@code bytes}; any UTF-8 reads as UTF-8 does.
     *
     * @throws CharacterCodingException when the bytes are neither UTF-8 nor a surrogate's three bytes (a file in
     *                                  another encoding, a sequence cut short)
     */
    public static String decode(byte[] bytes) throws CharacterCodingException {
        return decode(bytes, CodingErrorAction.REPORT);
    }

    /** As {@link #decode}, with U+FFFD for each byte sequence that is neither UTF-8 nor a surrogate's three bytes. */
    public static String decodeReplacing(byte[] bytes) {
        try {
            return decode(bytes, CodingErrorAction.REPLACE);
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("A replacing decoder reported malformed input", e);
        }
    }

    /**
     * As {@link #decodeReplacing(byte[])} for {@code length} bytes from {@code offset}, at the cost of a UTF-8 decode
     * when they hold no surrogate's bytes (the common case, read on every search hit).
     */
    public static String decodeReplacing(byte[] bytes, int offset, int length) {
        String utf8 = new String(bytes, offset, length, StandardCharsets.UTF_8);
        // a surrogate's bytes are malformed UTF-8, which decodes to U+FFFD; a Latin-1 string is not even searched
        return utf8.indexOf('\uFFFD') < 0 ? utf8 : decodeReplacing(Arrays.copyOfRange(bytes, offset, offset + length));
    }

    private static String decode(byte[] bytes, CodingErrorAction malformed) throws CharacterCodingException {
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(malformed)
                .onUnmappableCharacter(malformed);
        StringBuilder out = null;
        int run = 0; // the start of the bytes not yet decoded
        for (int i = 0; i + 2 < bytes.length; i++) {
            // ED is only ever a lead byte: a surrogate's three bytes cannot begin inside another character
            if ((bytes[i] & 0xFF) == 0xED && (bytes[i + 1] & 0xE0) == 0xA0 && (bytes[i + 2] & 0xC0) == 0x80) {
                if (out == null) {
                    out = new StringBuilder(bytes.length);
                }
                out.append(utf8.reset().decode(ByteBuffer.wrap(bytes, run, i - run)))
                        .append((char) (0xD000 | (bytes[i + 1] & 0x3F) << 6 | bytes[i + 2] & 0x3F));
                i += 2;
                run = i + 1;
            }
        }
        CharSequence rest = utf8.reset().decode(ByteBuffer.wrap(bytes, run, bytes.length - run));
        return out == null ? rest.toString() : out.append(rest).toString();
    }
}
