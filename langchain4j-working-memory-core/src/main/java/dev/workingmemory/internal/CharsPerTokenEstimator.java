package dev.workingmemory.internal;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;

/**
 * The token estimate used when the provider has no {@link TokenCountEstimator} of the model: a token per four
 * characters of Latin text (rounded up), plus four per message for its role and framing. Close to OpenAI's tokenizers
 * for English prose; code takes more tokens per character. Other scripts take more tokens per character, so a character
 * is counted by its script ({@link Character.UnicodeScript}): a Chinese, Japanese or Korean character (Han, Hiragana,
 * Katakana, Hangul, and the CJK symbols, punctuation and full-width forms that go with them) as a token, a letter of
 * any other script that is not Latin (Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai, ...) as half a token. Measured
 * on the conversations of {@code src/test/resources/languages}, tokens per character: Japanese and Chinese 1.24
 * (cl100k) and 0.86 (o200k), Russian 0.60 and 0.36, Latin text (German, French, Polish, ...) 0.34 and 0.30; the
 * estimate undercounts Latin text by a quarter, and at four characters a token it undercounted Japanese and Chinese by
 * 2.4 to 3.6 times (a 600-token budget held 1,500 to 2,000 tokens of them) and Russian by 1.4 to 2.1. A text of Latin
 * script alone counts as before. Only text is counted: an image, audio or a
 * file in a user's message or a tool's result costs what the model's provider makes of it, which this cannot know.
 *
 * <p>Thread-safe (stateless).
 */
public final class CharsPerTokenEstimator implements TokenCountEstimator {

    public static final CharsPerTokenEstimator INSTANCE = new CharsPerTokenEstimator();
    private static final int PER_MESSAGE = 4;
    /** The first character whose weight is looked up: below it (ASCII, Latin-1, Latin Extended, IPA) a quarter token. */
    private static final char FIRST_WEIGHED = 0x370;

    private CharsPerTokenEstimator() {
    }

    @Override
    public int estimateTokenCountInText(String text) {
        return text == null ? 0 : (int) Math.min(Integer.MAX_VALUE, (quarters(text) + 3) / 4);
    }

    /**
     * A text's size in quarter tokens: 1 for a character of Latin script and for the common symbols, digits and
     * punctuation, 2 for a letter of another alphabet, 4 for a CJK character.
     */
    static long quarters(CharSequence text) {
        long quarters = 0;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < FIRST_WEIGHED) { // most text, counted without a look-up
                quarters++;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                quarters += 2L * weight(Character.toCodePoint(c, text.charAt(i + 1))); // each of its two chars at its weight
                i++;
            } else {
                quarters += weight(c);
            }
        }
        return quarters;
    }

    /**
     * The size of the character at {@code i} in quarter tokens, as {@link #quarters} counts it: each half of a surrogate
     * pair at the pair's weight, so that the sizes of a text's characters add up to its size.
     */
    static int quarters(CharSequence text, int i) {
        char c = text.charAt(i);
        if (c < FIRST_WEIGHED) {
            return 1;
        }
        if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
            return weight(Character.toCodePoint(c, text.charAt(i + 1)));
        }
        if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1))) {
            return weight(Character.toCodePoint(text.charAt(i - 1), c));
        }
        return weight(c);
    }

    private static int weight(int codePoint) {
        Character.UnicodeScript script = Character.UnicodeScript.of(codePoint);
        return switch (script) {
            case HAN, HIRAGANA, KATAKANA, HANGUL, BOPOMOFO -> 4;
            case LATIN, COMMON, INHERITED, UNKNOWN -> isCjkSymbol(codePoint) ? 4 : 1;
            default -> Character.isLetter(codePoint) ? 2 : 1;
        };
    }

    /** CJK punctuation ({@code 。、「」}) and full-width forms ({@code ！？（）}): a token each, as the text around them. */
    private static boolean isCjkSymbol(int codePoint) {
        Character.UnicodeBlock block = Character.UnicodeBlock.of(codePoint);
        return block == Character.UnicodeBlock.CJK_SYMBOLS_AND_PUNCTUATION
                || block == Character.UnicodeBlock.HALFWIDTH_AND_FULLWIDTH_FORMS;
    }

    @Override
    public int estimateTokenCountInMessage(ChatMessage message) {
        return PER_MESSAGE + tokens(message);
    }

    @Override
    public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
        int total = 0;
        for (ChatMessage message : messages) {
            total += estimateTokenCountInMessage(message);
        }
        return total;
    }

    private static int tokens(ChatMessage message) {
        long quarters = 0;
        if (message instanceof SystemMessage system) {
            quarters = quarters(system.text());
        } else if (message instanceof UserMessage user) {
            quarters = quarters(MessageText.of(user));
        } else if (message instanceof AiMessage ai) {
            quarters = ai.text() == null ? 0 : quarters(ai.text());
            if (ai.hasToolExecutionRequests()) {
                for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
                    quarters += quartersOf(request.name()) + quartersOf(request.arguments());
                }
            }
        } else if (message instanceof ToolExecutionResultMessage result) {
            quarters = quarters(MessageText.of(result));
        }
        return (int) Math.min(Integer.MAX_VALUE, (quarters + 3) / 4);
    }

    private static long quartersOf(String text) {
        return text == null ? 0 : quarters(text);
    }
}
