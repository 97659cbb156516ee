package dev.workingmemory.entity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default extractor on a labelled set of realistic tool results ({@code entity/labelled-tool-results.json}):
 * service-call results in the style of task-oriented dialogue APIs (restaurants, hotels, events, music, movies,
 * payments, weather, ...), REST JSON, GraphQL {@code data} wrappers, search results with hits, and classic
 * id-bearing results (CMS, GitHub, Stripe, Slack). Each case lists the entities a reader expects, at most 3 from a
 * list and none for results that are not about things (payments, weather, statuses, time slots, counts).
 *
 * <p>An extracted entity matches a label when the types are equal, the names are equal ignoring case and runs of
 * whitespace, and either the label has an id and the entity has that id, or the label has none and the entity's id
 * is {@linkplain Entity#hasDerivedId() derived}. An id-bearing record without a name is labelled with its id as
 * name (what {@link Entity} does). Capture rate = labels matched / labels; false entities = extracted entities that
 * match no label / all extracted entities.
 */
class LabelledToolResultsTest {

    private static final double CAPTURE_GOAL = 0.90;
    private static final double FALSE_ENTITY_GOAL = 0.05;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static List<Case> cases;
    private static List<Case> heldOut;

    record Label(String type, String name, String id) {
        boolean matches(Entity entity) {
            return type.equals(entity.type())
                    && Entity.nameKey(name).equals(Entity.nameKey(entity.name()))
                    && (id == null ? entity.hasDerivedId() : id.equals(entity.id()));
        }
    }

    record Case(int index, String style, String tool, String result, List<Label> expected) {
    }

    /** Counts of one style (or all). */
    static final class Tally {
        int cases;
        int expected;
        int captured;
        int extracted;
        int falseEntities;

        void add(Tally other) {
            cases += other.cases;
            expected += other.expected;
            captured += other.captured;
            extracted += other.extracted;
            falseEntities += other.falseEntities;
        }

        double captureRate() {
            return expected == 0 ? 1.0 : (double) captured / expected;
        }

        double falseRate() {
            return extracted == 0 ? 0.0 : (double) falseEntities / extracted;
        }
    }

    @BeforeAll
    static void load() throws IOException {
        cases = load("/entity/labelled-tool-results.json");
        heldOut = load("/entity/labelled-tool-results-held-out.json");
    }

    private static List<Case> load(String resource) throws IOException {
        try (InputStream in = LabelledToolResultsTest.class.getResourceAsStream(resource)) {
            List<Case> loaded = new ArrayList<>();
            for (JsonNode node : JSON.readTree(in)) {
                List<Label> expected = new ArrayList<>();
                for (JsonNode label : node.get("expected")) {
                    expected.add(new Label(label.get("type").asText(), label.get("name").asText(),
                            label.hasNonNull("id") ? label.get("id").asText() : null));
                }
                loaded.add(new Case(loaded.size(), node.get("style").asText(), node.get("tool").asText(),
                        JSON.writeValueAsString(node.get("result")), expected));
            }
            return loaded;
        }
    }

    @Test
    void should_hold_at_least_60_cases_from_every_style_with_and_without_entities() {
        assertThat(cases).hasSizeGreaterThanOrEqualTo(60);
        assertThat(heldOut).hasSizeGreaterThanOrEqualTo(30);
        assertThat(cases).extracting(Case::style).contains("service", "rest", "graphql", "search", "classic");
        assertThat(cases).anyMatch(c -> c.expected().isEmpty()).anyMatch(c -> c.expected().size() == 3);
        assertThat(cases).allSatisfy(c -> assertThat(c.expected()).hasSizeLessThanOrEqualTo(3));
    }

    @Test
    void should_capture_at_least_90_percent_of_named_records_with_at_most_5_percent_false_entities() {
        Tally all = evaluate("Entity extraction on the labelled set", cases);

        assertThat(all.captureRate()).as("capture rate").isGreaterThanOrEqualTo(CAPTURE_GOAL);
        assertThat(all.falseRate()).as("false entities").isLessThanOrEqualTo(FALSE_ENTITY_GOAL);
    }

    /**
     * The held-out cases were written after the extractor's rules, before running them on it: their figures (printed)
     * say how well the rules carry over to results they were not made with. The goals are not asserted on them; what
     * is asserted is that their results about no thing still give no entity.
     */
    @Test
    void should_print_the_held_out_figures_and_find_nothing_in_its_results_about_no_thing() {
        evaluate("Entity extraction on the held-out set", heldOut);
        JsonEntityExtractor extractor = JsonEntityExtractor.create();

        assertThat(heldOut).filteredOn(c -> c.expected().isEmpty()).hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(c -> assertThat(extractor.extract(c.tool(), c.result())).as(c.tool()).isEmpty());
    }

    /** Runs the default extractor on {@code set}, prints the figures per style and the misses, returns the total. */
    private static Tally evaluate(String title, List<Case> set) {
        JsonEntityExtractor extractor = JsonEntityExtractor.create();
        Map<String, Tally> byStyle = new TreeMap<>();
        List<String> misses = new ArrayList<>();
        for (Case c : set) {
            List<Entity> found = extractor.extract(c.tool(), c.result());
            Tally tally = byStyle.computeIfAbsent(c.style(), s -> new Tally());
            tally.cases++;
            tally.expected += c.expected().size();
            tally.extracted += found.size();
            for (Label label : c.expected()) {
                if (found.stream().anyMatch(label::matches)) {
                    tally.captured++;
                } else {
                    misses.add("#" + c.index() + " " + c.tool() + ": missed " + label);
                }
            }
            for (Entity entity : found) {
                if (c.expected().stream().noneMatch(label -> label.matches(entity))) {
                    tally.falseEntities++;
                    misses.add("#" + c.index() + " " + c.tool() + ": false " + entity);
                }
            }
        }
        Tally all = new Tally();
        byStyle.values().forEach(all::add);

        StringBuilder report = new StringBuilder(title).append('\n');
        report.append(String.format(Locale.ROOT, "%-8s %5s %8s %8s %9s %8s %7s%n",
                "style", "cases", "expected", "captured", "extracted", "false", "capture"));
        byStyle.forEach((style, t) -> report.append(line(style, t)));
        report.append(line("all", all));
        report.append(String.format(Locale.ROOT, "capture rate %.3f (goal >= %.2f), false entities %.3f (goal <= %.2f)%n",
                all.captureRate(), CAPTURE_GOAL, all.falseRate(), FALSE_ENTITY_GOAL));
        misses.forEach(m -> report.append("  ").append(m).append('\n'));
        System.out.print(report);
        return all;
    }

    private static String line(String style, Tally t) {
        return String.format(Locale.ROOT, "%-8s %5d %8d %8d %9d %8d %7.3f%n",
                style, t.cases, t.expected, t.captured, t.extracted, t.falseEntities, t.captureRate());
    }
}
