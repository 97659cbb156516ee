package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.notes.Note;
import dev.workingmemory.render.BlockText;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The dream prompt: a template with {@code {{placeholders}}} filled from a {@link DreamInput}. Thread-safe (immutable).
 *
 * <p>Placeholders are replaced in one pass, so a note that contains {@code {{budget}}} stays as written (LangChain4j's
 * {@code PromptTemplate} replaces variable after variable, which would expand it). Data that could close one of the
 * prompt's wrapper tags ({@code </notes>}) has its {@code <} turned into {@code ‹}.
 */
final class DreamPrompt {

    static final String DEFAULT_RESOURCE = "dev/workingmemory/dream/dream-prompt.md";
    static final Set<String> PLACEHOLDERS = Set.of("time", "mood", "budget", "max_pointers", "sections",
            "pointer_format", "salience", "weighting", "old_state", "notes", "crystals", "entities", "slot_items");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([a-z_]+)\\s*}}");
    private static final Pattern WRAPPER_TAG = Pattern.compile("<(/?\\s*(?:old_state|notes|memories|insights))",
            Pattern.CASE_INSENSITIVE);

    private final String template;
    private final int maxPointers;

    DreamPrompt(String template, int maxPointers) {
        Ensure.notBlank(template, "template");
        Set<String> unknown = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            if (!PLACEHOLDERS.contains(m.group(1))) {
                unknown.add(m.group(1));
            }
        }
        Ensure.that(unknown.isEmpty(), "The dream prompt has unknown placeholders " + unknown + "; known: "
                + new TreeSet<>(PLACEHOLDERS));
        this.template = template;
        this.maxPointers = maxPointers;
    }

    static String defaultTemplate() {
        try (InputStream in = DreamPrompt.class.getClassLoader().getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("The dream prompt resource " + DEFAULT_RESOURCE + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the dream prompt resource " + DEFAULT_RESOURCE, e);
        }
    }

    String render(DreamInput input) {
        Map<String, String> values = values(input);
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder(template.length() + input.sizeChars() + 512);
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(values.get(m.group(1))));
        }
        m.appendTail(out);
        return out.toString();
    }

    private Map<String, String> values(DreamInput input) {
        Map<String, String> values = new HashMap<>();
        values.put("time", input.time().toString());
        values.put("mood", input.salience().mood());
        values.put("budget", String.format(Locale.ROOT, "%,d", input.budgetChars()));
        values.put("max_pointers", Integer.toString(maxPointers));
        values.put("sections", sections(input.schema()));
        values.put("pointer_format", "- Past: <topic> → search: `<keywords>`");
        values.put("salience", input.salience().describe());
        values.put("weighting", weighting(input.schema(), input.salience()));
        values.put("old_state", input.oldState().map(state -> data(state.render()))
                .orElse("(none: this is the first dream)"));
        values.put("notes", orNone(input.notes().stream().map(Note::line).map(DreamPrompt::data).toList(), "\n"));
        values.put("crystals", orNone(input.crystals().stream().map(DreamPrompt::crystal).toList(), "\n"));
        values.put("entities", orNone(input.entities().stream().map(DreamPrompt::data).toList(), "; "));
        values.put("slot_items", orNone(input.slotItems().stream().map(DreamPrompt::data).toList(), "; "));
        return values;
    }

    private static String sections(StateSchema schema) {
        return schema.sections().stream()
                .map(s -> "   - " + s.name() + (s.guidance().isEmpty() ? "" : ": " + s.guidance()))
                .collect(Collectors.joining("\n"));
    }

    /**
     * One line per section weighted by a hormone, saying how aggressively to update it at the current levels (seed
     * 000: oxytocin → The Bond; dopamine and cortisol → Active Context); then the decay rule of the pointers.
     */
    static String weighting(StateSchema schema, SalienceLevels levels) {
        List<String> lines = new ArrayList<>();
        for (StateSchema.Section section : schema.sections()) {
            if (section.weightedBy().isEmpty()) {
                continue;
            }
            List<Hormone> hormones = section.weightedBy().stream().sorted().toList();
            double level = hormones.stream().mapToDouble(levels::level).max().orElse(0);
            String names = hormones.stream().map(h -> String.format(Locale.ROOT, "%s %.2f", h.label(), levels.level(h)))
                    .collect(Collectors.joining(", "));
            String how = level >= SalienceLevels.STRONG ? "high: update it aggressively, this is what the user lived"
                    : level >= SalienceLevels.MILD ? "moderate: bring it up to date"
                    : "low: change it only for clear new facts";
            lines.add("- " + section.name() + " (" + names + "): " + how + hints(hormones, levels));
        }
        if (schema.has(StateSchema.CRYSTAL_POINTERS)) {
            lines.add("- " + StateSchema.CRYSTAL_POINTERS + ": driven by decay; topics fading from the other sections "
                    + "become pointers.");
        }
        return String.join("\n", lines);
    }

    private static String hints(List<Hormone> hormones, SalienceLevels levels) {
        StringBuilder hints = new StringBuilder(".");
        if (hormones.contains(Hormone.DOPAMINE) && levels.dopamine() >= SalienceLevels.MILD) {
            hints.append(" Record the recent breakthroughs as wins.");
        }
        if (hormones.contains(Hormone.CORTISOL) && levels.cortisol() >= SalienceLevels.MILD) {
            hints.append(" Record the recent frictions as explicit things to avoid.");
        }
        if (hormones.contains(Hormone.OXYTOCIN) && levels.oxytocin() >= SalienceLevels.MILD) {
            hints.append(" Record the bonding moments and what they say about the user.");
        }
        return hints.toString();
    }

    private static String crystal(DreamCrystal crystal) {
        return data(String.format(Locale.ROOT, "- [%s] (%s, importance %.2f) %s", crystal.time(), crystal.kind(),
                crystal.importance(), StateLines.oneLine(crystal.text())));
    }

    private static String orNone(List<String> items, String separator) {
        return items.isEmpty() ? "(none)" : String.join(separator, items);
    }

    /** Data cannot close or open the prompt's wrapper tags, and is {@link BlockText#clean cleaned}. */
    static String data(String text) {
        return WRAPPER_TAG.matcher(BlockText.clean(text)).replaceAll("‹$1");
    }
}
