package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.List;
import java.util.Optional;

/**
 * The conservative first dream after a seed migration (seed 000's transition UX): the user's hand-written MEMORY.md
 * stays on top and the generated state is appended below it, instead of replacing it.
 * <pre>
 * # My existing MEMORY.md content
 * ...user's original content...
 *
 * ---
 *
 * &lt;!-- Dream-generated working memory follows. Subsequent dream cycles will
 *      gradually integrate the above content. --&gt;
 *
 * ## Dream-Generated
 *
 * # Working Memory State
 * ...
 * </pre>
 * The part below {@code ## Dream-Generated} is a whole state document. The next dream reads its old state with
 * {@link #state} (the generated part only: the original content was migrated into crystals, where the dream meets it)
 * and commits a plain state document: later dreams take over.
 *
 * <p>Thread-safe (stateless).
 */
public final class SeedTransition {

    /** The heading above the generated state. */
    public static final String HEADING = "## Dream-Generated";
    /** The HTML comment of the seed that separates the original from the generated state. */
    public static final String COMMENT = """
            <!-- Dream-generated working memory follows. Subsequent dream cycles will
                 gradually integrate the above content. -->""";
    private static final String COMMENT_START = "<!-- Dream-generated working memory follows";

    private SeedTransition() {
    }

    /**
     * {@code original} followed by {@code ---}, the seed's comment, {@value #HEADING} and {@code generated}. When
     * {@code original} is already a transition document, its generated part is replaced; when it is blank, the result
     * is the generated state alone.
     */
    public static String append(String original, StateDocument generated) {
        Ensure.notNull(original, "original");
        Ensure.notNull(generated, "generated");
        String kept = originalPart(original).orElse(original).replace("\r\n", "\n").stripTrailing();
        if (kept.isBlank()) {
            return generated.render();
        }
        return kept + "\n\n---\n\n" + COMMENT + "\n\n" + HEADING + "\n\n" + generated.render();
    }

    /** Whether {@code document} is a transition document: the seed's comment, then {@value #HEADING}. */
    public static boolean isTransition(String document) {
        return headingIndex(document) >= 0;
    }

    /** The user's original content of a transition document, without the separator. */
    public static Optional<String> originalPart(String document) {
        int heading = headingIndex(document);
        if (heading < 0) {
            return Optional.empty();
        }
        List<String> lines = StateLines.lines(document);
        int end = commentIndex(lines);
        for (int i = end - 1; i >= 0; i--) { // the separator is the last rule before the comment
            if (lines.get(i).isBlank()) {
                continue;
            }
            if (lines.get(i).strip().equals("---")) {
                end = i;
            }
            break;
        }
        return Optional.of(String.join("\n", lines.subList(0, end)).strip());
    }

    /** The generated state text of a transition document: what follows {@value #HEADING}. */
    public static Optional<String> generatedPart(String document) {
        int heading = headingIndex(document);
        if (heading < 0) {
            return Optional.empty();
        }
        List<String> lines = StateLines.lines(document);
        return Optional.of(String.join("\n", lines.subList(heading + 1, lines.size())).strip());
    }

    /**
     * The state a stored MEMORY.md holds: the generated part of a transition document, otherwise the whole text,
     * parsed with {@code schema}.
     */
    public static StateDocument state(String document, StateSchema schema) {
        Ensure.notNull(document, "document");
        return StateDocument.parse(generatedPart(document).orElse(document), schema);
    }

    /** The line index of {@value #HEADING} after the comment, or -1. */
    private static int headingIndex(String document) {
        if (document == null) {
            return -1;
        }
        List<String> lines = StateLines.lines(document);
        int comment = commentIndex(lines);
        if (comment < 0) {
            return -1;
        }
        for (int i = comment; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(HEADING)) {
                return i;
            }
        }
        return -1;
    }

    /** The line index of the last line starting the seed's comment, or -1. */
    private static int commentIndex(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).strip().startsWith(COMMENT_START)) {
                return i;
            }
        }
        return -1;
    }
}
