package dev.workingmemory.slots;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Precision and recall of the default extractor per slot over the labelled set in {@code src/test/resources/extraction}
 * (see its README for the format and the labelling rules). The goal: precision at least 0.9 and recall at least 0.7
 * in every slot.
 */
class SessionExtractionQualityTest {

    private static final List<String> SLOTS = List.of("error", "decision", "todo", "dependency", "pool");
    private static final String HOLDOUT = "holdout.cases/";
    private static final String FRESH = "fresh.cases/";
    private static final String UNSEEN = "unseen.cases/";
    private static final String BLIND = "blind.cases/";
    private static final String DEPS_HELDOUT = "deps-heldout.cases/";
    private static List<LabelledCase> cases;

    @BeforeAll
    static void load() throws IOException, URISyntaxException {
        cases = LabelledCase.load("/extraction").values().stream().flatMap(List::stream).toList();
    }

    @Test
    void should_reach_the_precision_and_recall_goals_in_every_slot() {
        SessionExtractor extractor = SessionExtractor.defaults();
        List<LabelledCase> first = cases.stream().filter(c -> !c.name().startsWith(HOLDOUT) && !c.name().startsWith(FRESH)
                && !c.name().startsWith(UNSEEN) && !c.name().startsWith(BLIND) && !c.name().startsWith(DEPS_HELDOUT)).toList();
        List<LabelledCase> holdout = cases.stream().filter(c -> c.name().startsWith(HOLDOUT)).toList();
        List<LabelledCase> fresh = cases.stream().filter(c -> c.name().startsWith(FRESH)).toList();
        List<LabelledCase> unseen = cases.stream().filter(c -> c.name().startsWith(UNSEEN)).toList();
        score("written before the extractor", first, extractor);
        score("second set (written after the first rules, then used to add rules)", holdout, extractor);
        score("third set (written after the second rules, then used to add rules)", fresh, extractor);
        List<LabelledCase> blind = cases.stream().filter(c -> c.name().startsWith(BLIND)).toList();
        score("fourth set (written before the third rules, then used to add the fourth)", unseen, extractor);
        score("fifth set (written before the fourth rules, never tuned on)", blind, extractor);
        List<LabelledCase> depsHeldout = cases.stream().filter(c -> c.name().startsWith(DEPS_HELDOUT)).toList();
        score("sixth set, unresolved dependencies (written before the fifth rules; one fix found on it)",
                depsHeldout, extractor);
        Map<String, int[]> all = score("all", cases, extractor);

        assertThat(cases).hasSizeGreaterThanOrEqualTo(40);
        all.forEach((slot, n) -> {
            assertThat(n[2]).as("labelled %s items", slot).isPositive();
            assertThat(precision(n)).as("precision of %s", slot).isGreaterThanOrEqualTo(0.9);
            assertThat(recall(n)).as("recall of %s", slot).isGreaterThanOrEqualTo(0.7);
        });
    }

    /**
     * The rule that makes the session act ({@link SessionActivation#codingEvidence()}) on the tool results of the coding
     * sets: a memory whose first tool result is one of them acts from it on. The extraction figures above are those of
     * an acting memory: the rule decides when the extractor runs, not what it finds.
     */
    @Test
    void should_recognize_most_coding_tool_results_as_a_coding_agents_output() {
        SessionActivation rule = SessionActivation.codingEvidence();
        List<LabelledCase> results = cases.stream().filter(c -> c.message() instanceof ToolExecutionResultMessage).toList();
        List<LabelledCase> withErrors = results.stream().filter(c -> c.expected().containsKey("error")).toList();
        List<LabelledCase> withItems = results.stream().filter(c -> !c.expected().isEmpty()).toList();
        long all = results.stream().filter(c -> rule.isEvidence(c.message())).count();
        long errors = withErrors.stream().filter(c -> rule.isEvidence(c.message())).count();
        long items = withItems.stream().filter(c -> rule.isEvidence(c.message())).count();
        System.out.printf(Locale.ROOT, "%nCoding evidence in the coding sets: %d of %d tool results (%.2f); %d of %d with"
                        + " labelled items (%.2f); %d of %d with labelled errors (%.2f)%n", all, results.size(),
                (double) all / results.size(), items, withItems.size(), (double) items / withItems.size(), errors,
                withErrors.size(), (double) errors / withErrors.size());
        results.stream().filter(c -> !c.expected().isEmpty() && !rule.isEvidence(c.message()))
                .forEach(c -> System.out.println("  not evidence: " + c.name() + " " + c.expected().keySet()));

        assertThat((double) errors / withErrors.size()).as("tool results with labelled errors that are evidence")
                .isGreaterThanOrEqualTo(0.9);
        assertThat((double) items / withItems.size()).as("tool results with labelled items that are evidence")
                .isGreaterThanOrEqualTo(0.85);
    }

    /**
     * False removals of todos: every user and model message of the labelled sets (coding, blind coding outputs and
     * ordinary conversations) read as a statement that something is done, against everything the extractor finds in
     * them held at once (56 todos among 336 items). None of those messages was written to complete a todo; the one
     * taken reports the todo of the message before it done ("Done: the intro now reads …").
     */
    @Test
    void should_take_no_labelled_message_for_a_todo_done_but_the_one_that_reports_it() throws IOException, URISyntaxException {
        SessionExtractor extractor = SessionExtractor.defaults();
        List<LabelledCase> all = new ArrayList<>(cases);
        for (String set : List.of("/coding", "/ordinary")) {
            LabelledCase.load(set).values().forEach(all::addAll);
        }
        List<SessionItem> held = all.stream().flatMap(c -> extractor.extract(c.message()).stream())
                .filter(item -> !item.slot().equals("error")).toList();
        List<LabelledCase> statements = all.stream()
                .filter(c -> c.message() instanceof UserMessage || c.message() instanceof AiMessage).toList();
        List<String> taken = new ArrayList<>();
        for (LabelledCase c : statements) {
            extractor.done(c.message(), held).forEach(item -> taken.add(c.name() + " -> " + item.content()));
        }
        System.out.printf(Locale.ROOT, "%nTodos done in the labelled sets: %d taken from %d user and model messages, "
                + "%d todos held%n", taken.size(), statements.size(), held.stream().filter(i -> i.slot().equals("todo")).count());
        taken.forEach(line -> System.out.println("  done: " + line));

        assertThat(taken).containsExactly(
                "cms.cases/assistant-copy-edit -> say \"Everything for your garden, up to 40% off\"");
    }

    /** Prints and returns, per slot, {true positives, extracted, expected}. */
    private static Map<String, int[]> score(String title, List<LabelledCase> set, SessionExtractor extractor) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        SLOTS.forEach(slot -> counts.put(slot, new int[3]));
        List<String> misses = new ArrayList<>();
        for (LabelledCase c : set) {
            List<SessionItem> items = extractor.extract(c.message());
            for (String slot : SLOTS) {
                List<String> got = items.stream().filter(i -> i.slot().equals(slot)).map(SessionItem::content).toList();
                List<List<String>> wanted = c.expected().getOrDefault(slot, List.of());
                int matched = matches(got, wanted);
                int[] n = counts.get(slot);
                n[0] += matched;
                n[1] += got.size();
                n[2] += wanted.size();
                if (matched < got.size() || matched < wanted.size()) {
                    misses.add(c.name() + " [" + slot + "] got " + got + " expected " + wanted);
                }
            }
        }
        StringBuilder table = new StringBuilder("\nSession extraction, " + title + ": " + set.size() + " cases\n")
                .append(String.format(Locale.ROOT, "%-11s %9s %9s %6s %9s %7s%n", "slot", "expected", "extracted", "hits",
                        "precision", "recall"));
        counts.forEach((slot, n) -> table.append(String.format(Locale.ROOT, "%-11s %9d %9d %6d %9.2f %7.2f%n",
                slot, n[2], n[1], n[0], precision(n), recall(n))));
        System.out.println(table);
        misses.forEach(miss -> System.out.println("  differs: " + miss));
        return counts;
    }

    /** Greedy one-to-one matching: an item matches an expectation when it contains all of its fragments. */
    private static int matches(List<String> got, List<List<String>> wanted) {
        boolean[] used = new boolean[got.size()];
        int matched = 0;
        for (List<String> fragments : wanted) {
            for (int i = 0; i < got.size(); i++) {
                if (!used[i] && containsAll(got.get(i), fragments)) {
                    used[i] = true;
                    matched++;
                    break;
                }
            }
        }
        return matched;
    }

    private static boolean containsAll(String item, List<String> fragments) {
        String normalized = squash(item);
        return fragments.stream().allMatch(f -> normalized.contains(squash(f)));
    }

    private static String squash(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }

    private static double precision(int[] n) {
        return n[1] == 0 ? 1.0 : (double) n[0] / n[1];
    }

    private static double recall(int[] n) {
        return n[2] == 0 ? 1.0 : (double) n[0] / n[2];
    }

    /** One labelled message. */
    record LabelledCase(String name, ChatMessage message, Map<String, List<List<String>>> expected) {

        /** The cases of each {@code .cases} file of a test resource directory, by file name, in name order. */
        static Map<String, List<LabelledCase>> load(String directory) throws IOException, URISyntaxException {
            Path dir = Paths.get(LabelledCase.class.getResource(directory).toURI());
            Map<String, List<LabelledCase>> byFile = new LinkedHashMap<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".cases")).sorted().toList()) {
                    String name = file.getFileName().toString();
                    byFile.put(name, parse(name, Files.readString(file, StandardCharsets.UTF_8)));
                }
            }
            return byFile;
        }

        static List<LabelledCase> parse(String file, String content) {
            List<LabelledCase> parsed = new ArrayList<>();
            String[] chunks = ("\n" + content).split("\n### ");
            for (String chunk : Arrays.copyOfRange(chunks, 1, chunks.length)) {
                int separator = chunk.indexOf("\n---\n");
                if (separator < 0) {
                    throw new IllegalStateException(file + ": a case without '---': " + chunk.lines().findFirst().orElse(""));
                }
                List<String> header = chunk.substring(0, separator).lines().toList();
                String text = chunk.substring(separator + 5).stripTrailing();
                String name = file + "/" + header.get(0).strip();
                String source = null;
                Map<String, List<List<String>>> expected = new LinkedHashMap<>();
                for (String line : header.subList(1, header.size())) {
                    if (line.startsWith("source: ")) {
                        source = line.substring(8).strip();
                    } else if (line.startsWith("expect: ")) {
                        String label = line.substring(8).strip();
                        if (!label.equals("none")) {
                            int colon = label.indexOf(": ");
                            String slot = label.substring(0, colon);
                            if (!SLOTS.contains(slot)) {
                                throw new IllegalStateException(name + ": unknown slot " + slot);
                            }
                            expected.computeIfAbsent(slot, s -> new ArrayList<>())
                                    .add(Arrays.stream(label.substring(colon + 2).split(" && ")).map(String::strip).toList());
                        }
                    } else if (!line.isBlank()) {
                        throw new IllegalStateException(name + ": unknown header line " + line);
                    }
                }
                parsed.add(new LabelledCase(name, message(name, source, text), expected));
            }
            return parsed;
        }

        private static ChatMessage message(String name, String source, String text) {
            if (source == null) {
                throw new IllegalStateException(name + ": no source");
            }
            if (source.startsWith("tool ")) {
                return ToolExecutionResultMessage.from("call_1", source.substring(5).strip(), text);
            }
            return switch (source) {
                case "user" -> UserMessage.from(text);
                case "assistant" -> AiMessage.from(text);
                default -> throw new IllegalStateException(name + ": unknown source " + source);
            };
        }
    }
}
