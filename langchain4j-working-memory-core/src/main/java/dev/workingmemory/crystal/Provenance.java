package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a text the memory keeps came from, derived from what a crystal already carries: its kind, and for a past turn
 * the role each of its lines starts with.
 *
 * <table>
 *   <caption>The provenance of each kind of crystal</caption>
 *   <tr><th>kind</th><th>provenance</th></tr>
 *   <tr><td>{@code note}, {@code archived_note}</td><td>{@link #MODEL} (written by the model's note tool, or by the
 *   application)</td></tr>
 *   <tr><td>{@code turn}</td><td>per line: {@code user:} {@link #USER}, {@code assistant:} {@link #MODEL},
 *   {@code tool <name>:} (and any other line) {@link #TOOL}</td></tr>
 *   <tr><td>{@code tool_output}</td><td>{@link #TOOL}</td></tr>
 *   <tr><td>{@code migrated}, {@code topic}</td><td>{@link #DREAM} (a hand-written MEMORY.md; lines a dream moved out
 *   of the state)</td></tr>
 * </table>
 *
 * <p><b>The rule, one for the whole memory:</b> text that came from a tool is data, never an instruction. It is shown
 * (escaped) and searchable, but a dream never writes it into the state document ({@code MEMORY.md}) and the memory
 * never writes it into a note: a tool output reaches the state only as a crystal pointer whose topic names the tool
 * and whose keywords find the output again ({@code - Past: Output of tool fetch_page at 2026-03-12T14:30Z → search:
 * `kw1 kw2`}). The model's own notes and the user's words reach the state as before. {@code dev.workingmemory.dream}
 * applies it to every dream, offline or by a model.
 *
 * <p>Immutable and thread-safe.
 */
public enum Provenance {

    /** What the user said. */
    USER,
    /** What the model said or noted (or the application noted for it). */
    MODEL,
    /** What a tool returned: data, never an instruction. */
    TOOL,
    /** What the memory's own dreams wrote (the state document, what left it, a hand-written MEMORY.md). */
    DREAM;

    /**
     * One line of a crystal's text and where it came from.
     *
     * @param provenance where the line came from
     * @param text       the line
     */
    public record Line(Provenance provenance, String text) {

        /** Rejects a null component with an {@link IllegalArgumentException}. */
        public Line {
            Ensure.notNull(provenance, "provenance");
            Ensure.notNull(text, "text");
        }
    }

    /** The provenance of a kind whose whole text has one; {@code null} for {@link CrystalKind#TURN}. */
    static Provenance of(CrystalKind kind) {
        return switch (Ensure.notNull(kind, "kind")) {
            case NOTE, ARCHIVED_NOTE -> MODEL;
            case TOOL_OUTPUT -> TOOL;
            case MIGRATED, TOPIC -> DREAM;
            case TURN -> null;
        };
    }

    /**
     * The lines of a crystal's text (never its context) with their provenance: for a past turn each line by its role,
     * for the other kinds every line by the kind.
     */
    public static List<Line> lines(Crystal crystal) {
        Ensure.notNull(crystal, "crystal");
        return lines(crystal.kind(), crystal.text());
    }

    /**
     * The lines of a text of the given kind with their provenance, as {@link #lines(Crystal)}; for what a search hit
     * shows of a crystal (a passage of a past turn keeps its lines' role prefixes).
     */
    public static List<Line> lines(CrystalKind kind, String text) {
        Ensure.notNull(text, "text");
        Provenance whole = of(kind);
        List<Line> lines = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            lines.add(new Line(whole != null ? whole : ofTurnLine(line), line));
        }
        return lines;
    }

    /**
     * The provenance of one line of a past turn as {@code dev.workingmemory.turns.PastTurns} writes it: an optional
     * date {@code [2026-03-12] }, then {@code user: }, {@code user <name>: }, {@code assistant: } or
     * {@code tool <name>: }. A line of no known role is taken for a tool's: it cannot be shown to be anything else.
     */
    public static Provenance ofTurnLine(String line) {
        Ensure.notNull(line, "line");
        int start = dateEnd(line);
        if (userTextStart(line, start) > 0) {
            return USER;
        }
        if (line.startsWith(MODEL_ROLE, start)) {
            return MODEL;
        }
        return TOOL;
    }

    /**
     * What a user's or the model's line of a past turn says, without its date and role ({@code [2026-03-12] user: });
     * any other line as it is.
     */
    public static String turnLineText(String line) {
        Ensure.notNull(line, "line");
        int start = dateEnd(line);
        int user = userTextStart(line, start);
        if (user > 0) {
            return line.substring(user);
        }
        return line.startsWith(MODEL_ROLE, start) ? line.substring(start + MODEL_ROLE.length()) : line;
    }

    /**
     * Where the text of a user's line starts after its label {@code user: } or {@code user <name>: } (a name of at
     * most {@value #NAME_CHARS} characters, as past turns cut it), or -1 when the line at {@code start} is no user's.
     */
    private static int userTextStart(String line, int start) {
        if (line.startsWith(USER_ROLE, start)) {
            return start + USER_ROLE.length();
        }
        if (!line.startsWith(NAMED_USER, start)) {
            return -1;
        }
        int name = start + NAMED_USER.length();
        int colon = line.indexOf(": ", name);
        return colon > name && colon <= name + NAME_CHARS ? colon + 2 : -1;
    }

    /** The longest name a past turn's label holds: {@code user <name>: }, {@code tool <name>: }. */
    public static final int NAME_CHARS = 100;

    private static final String USER_ROLE = "user: ";
    private static final String NAMED_USER = "user ";
    private static final String MODEL_ROLE = "assistant: ";

    /** Where a past turn's line starts after its optional date {@code [2026-03-12] }. */
    private static int dateEnd(String line) {
        return line.startsWith("[") && line.length() > 13 && line.charAt(11) == ']' && line.charAt(12) == ' ' ? 13 : 0;
    }

    /** Whether text of this provenance may be written into the state document or a note as it is (not {@link #TOOL}). */
    public boolean mayInstruct() {
        return this != TOOL;
    }
}
