package dev.workingmemory.dream;

import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.Provenance;
import dev.workingmemory.internal.ContentWords;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link Provenance}'s rule in dreams: text that came from a tool never becomes a line of the state document. The
 * engine applies it to every dream, whatever the synthesizer (offline or a model), in two places:
 * <ol>
 *   <li><b>What a synthesizer sees</b> ({@link #forDream}): a tool output's crystal is shown as {@code Output of tool
 *   <name> at <minute>}, and each tool line of a past turn as {@code tool <name>: (output not shown)}; their text stays
 *   in the crystal store, where the pointer the dream writes for them (its keywords from the store) finds it.</li>
 *   <li><b>What a synthesizer wrote</b> ({@link Evidence#hold}): a line of the new state (a pointer: its topic) that
 *   repeats what a tool returned is held out of the state. It repeats it when it shares a run of {@value #RUN}
 *   consecutive content words (three, for a line of three) with a tool's text in the dream's input — a tool output, a
 *   tool line of a past turn, an entity, an item of the error, dependency or pool slot — that neither the user (a
 *   user line of a past turn) nor the old state said. A pointer's keywords are exempt: they are how a tool output is
 *   found again. The model's notes are not evidence either way: a note the model copied from a tool output is held
 *   like any other tool text, a note in its own words is not.</li>
 * </ol>
 * Content words and their stems are those of {@link ContentWords}: function words ("the", "from", "always", "user")
 * do not count, so a paraphrase that keeps the words of an instruction is held too.
 *
 * <p>Thread-safe (stateless; an {@link Evidence} is confined to one dream).
 */
final class ToolText {

    /** How many consecutive content words a line must share with a tool's text to be held. */
    static final int RUN = 4;
    /** Session slots whose items come from tool results. */
    static final Set<String> TOOL_SLOTS = Set.of("error", "dependency", "pool");
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'")
            .withZone(ZoneOffset.UTC);
    private static final int MAX_TOOL_NAME = 60;
    /** A past turn's tool line starts with a date, {@code tool } and a tool name of at most 100 characters. */
    private static final int MAX_ROLE_CHARS = "[2026-03-12] tool ".length() + 100;

    private ToolText() {
    }

    /** The crystal as a synthesizer sees it: without the text a tool returned (see the class comment). */
    static DreamCrystal forDream(Crystal crystal) {
        String text;
        if (crystal.kind() == CrystalKind.TOOL_OUTPUT) {
            String tool = crystal.tags().stream().filter(tag -> !tag.equals(Crystal.PIECE)).findFirst()
                    .map(name -> StateLines.clip(StateLines.oneLine(name), MAX_TOOL_NAME)).orElse(null);
            text = (tool == null || tool.isEmpty() ? "Output of a tool" : "Output of tool " + tool) + " at "
                    + MINUTE.format(crystal.time().truncatedTo(ChronoUnit.MINUTES));
        } else if (crystal.kind() == CrystalKind.TURN) {
            List<String> lines = new ArrayList<>();
            for (Provenance.Line line : Provenance.lines(crystal)) {
                lines.add(line.provenance() == Provenance.TOOL ? withoutOutput(line.text()) : line.text());
            }
            text = String.join("\n", lines);
        } else {
            text = crystal.text();
        }
        return new DreamCrystal(crystal.id(), crystal.kind().textName(), crystal.time(), crystal.importance(), text);
    }

    /** What a tool line of a past turn shows a dream in place of the tool's text. */
    static final String OUTPUT_NOT_SHOWN = ": (output not shown)";

    /** {@code [date] tool name: (output not shown)}: a tool line of a past turn without what the tool returned. */
    private static String withoutOutput(String line) {
        int colon = line.indexOf(": ");
        String role = colon > 0 && colon <= MAX_ROLE_CHARS ? line.substring(0, colon) : "tool";
        return role + OUTPUT_NOT_SHOWN;
    }

    /**
     * What a dream's input holds of tool text, and of what the user and earlier states said: the runs of content words
     * of each. Not thread-safe (one dream's).
     */
    static final class Evidence {

        private final Set<String> toolRuns = new HashSet<>();
        private final Set<String> saidRuns = new HashSet<>();

        /** Adds a crystal's text by its provenance, consecutive lines of one provenance together. */
        Evidence crystal(Crystal crystal) {
            Provenance current = null;
            StringBuilder text = new StringBuilder();
            for (Provenance.Line line : Provenance.lines(crystal)) {
                if (line.provenance() != current && current != null) {
                    add(current, text.toString());
                    text.setLength(0);
                }
                current = line.provenance();
                text.append(line.text()).append('\n');
            }
            if (current != null) {
                add(current, text.toString());
            }
            return this;
        }

        /** Adds an entity (tool-derived) or a slot item {@code slot: item} (tool-derived for {@link #TOOL_SLOTS}). */
        Evidence insights(DreamInsights insights) {
            insights.entities().forEach(entity -> add(Provenance.TOOL, entity));
            for (String item : insights.slotItems()) {
                int colon = item.indexOf(':');
                String slot = colon > 0 ? item.substring(0, colon).strip() : "";
                add(TOOL_SLOTS.contains(slot) ? Provenance.TOOL : Provenance.MODEL, item);
            }
            return this;
        }

        /** Adds text of a provenance: tool text is evidence against a line, the user's and a dream's for it. */
        Evidence add(Provenance provenance, String text) {
            if (provenance == Provenance.TOOL) {
                addRuns(text, toolRuns);
            } else if (provenance == Provenance.USER || provenance == Provenance.DREAM) {
                addRuns(text, saidRuns);
            }
            return this;
        }

        /** Whether {@code line} repeats what a tool returned and nobody else said. */
        boolean repeatsToolText(String line) {
            if (toolRuns.isEmpty()) {
                return false;
            }
            List<String> stems = stems(line);
            if (stems.size() < RUN - 1) {
                return false;
            }
            int size = Math.min(RUN, stems.size());
            for (int i = 0; i + size <= stems.size(); i++) {
                String run = String.join(" ", stems.subList(i, i + size));
                if (toolRuns.contains(run) && !saidRuns.contains(run)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * {@code state} without the lines that repeat what a tool returned: in every section and the text before the
         * first; a pointer is held for its topic. A section left with nothing holds the placeholder.
         */
        Held hold(StateDocument state) {
            List<String> held = new ArrayList<>();
            StateDocument.Builder kept = StateDocument.builder(state.schema()).lastDream(state.lastDream().orElse(null))
                    .mood(state.mood().orElse(null)).intro(keptLines(state.intro(), held));
            for (StateDocument.Section section : state.sections()) {
                String body = keptLines(section.body(), held);
                kept.section(section.name(), section.suffix(), body.isBlank() && !section.body().isBlank()
                        ? StateLines.PLACEHOLDER : body);
            }
            return new Held(held.isEmpty() ? state : kept.build(), List.copyOf(held));
        }

        private String keptLines(String body, List<String> held) {
            List<String> kept = new ArrayList<>();
            for (String line : StateLines.lines(body)) {
                String checked = CrystalPointer.parse(line).map(CrystalPointer::topic).orElse(line);
                if (!line.isBlank() && repeatsToolText(checked)) {
                    held.add(line.strip());
                } else {
                    kept.add(line);
                }
            }
            return String.join("\n", kept);
        }

        /** Adds the runs of {@value #RUN} and of three consecutive content-word stems of {@code text}. */
        private static void addRuns(String text, Set<String> into) {
            List<String> stems = stems(text);
            for (int size = RUN - 1; size <= RUN; size++) {
                for (int i = 0; i + size <= stems.size(); i++) {
                    into.add(String.join(" ", stems.subList(i, i + size)));
                }
            }
        }

        private static List<String> stems(String text) {
            List<String> stems = new ArrayList<>();
            for (String token : ContentWords.tokens(text)) {
                if (ContentWords.isContentWord(token)) {
                    stems.add(ContentWords.stem(token));
                }
            }
            return stems;
        }
    }

    /** A state with the lines that repeated tool text held out of it, and those lines. */
    record Held(StateDocument state, List<String> lines) {
    }
}
