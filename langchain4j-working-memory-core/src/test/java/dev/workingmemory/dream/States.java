package dev.workingmemory.dream;

import dev.workingmemory.notes.Note;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** State documents and notes for the dream tests. */
final class States {

    static final Instant T0 = Instant.parse("2026-03-12T14:00:00Z");

    private States() {
    }

    /** A state with every default section, each holding {@code linesPerSection} distinct fact lines. */
    static StateDocument full(int linesPerSection) {
        StateDocument.Builder builder = StateDocument.builder().lastDream(T0).mood("calm");
        int n = 0;
        for (String name : StateSchema.defaults().names()) {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < linesPerSection; i++, n++) {
                lines.add(name.equals(StateSchema.CRYSTAL_POINTERS)
                        ? new CrystalPointer("topic number " + n, "keyword" + n + " other" + n).line()
                        : "- Fact number " + n + " about the user and their long running project");
            }
            builder.section(name, String.join("\n", lines));
        }
        return builder.build();
    }

    /** Every default section with only a placeholder. */
    static String placeholders() {
        StateDocument.Builder builder = StateDocument.builder();
        StateSchema.defaults().names().forEach(name -> builder.section(name, "- None yet."));
        return builder.build().render();
    }

    static Note note(int minutes, double importance, String text, String... tags) {
        return new Note(T0.plusSeconds(60L * minutes), importance, List.of(tags), text);
    }
}
