package dev.workingmemory.dream;

import dev.workingmemory.internal.ContentWords;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Repeated task patterns for Emerging Skills, offline: a task verb ("fix", "refactored", "deploying") followed, after
 * function words, by the next content word as its object ("deployed the app to staging" → {@code deploy app}), or the
 * next two when the first looks like an adjective ({@code -y -al -ic -ous -ive -ful -able -less}: "fix flaky tests" →
 * {@code fix flaky tests}). Patterns are compared by stems ("fixed the tests" and "fix test" meet). Each text counts a
 * pattern once. Lines read and written in seed 000's form:
 * {@code - refactor TypeScript → Confidence: 75% | Occurrences: 3}, where the confidence grows with the occurrences
 * ({@code n / (n + 1)}, at most 95%). Thread-safe (stateless).
 */
final class SkillPatterns {

    static final Set<String> VERBS = Set.of("fix", "debug", "refactor", "write", "rewrite", "deploy", "migrate",
            "review", "test", "build", "update", "add", "design", "optimize", "optimise", "implement", "configure",
            "document", "analyze", "analyse", "translate", "summarize", "summarise", "create", "remove", "upgrade",
            "install", "investigate", "draft", "plan", "schedule", "clean", "format", "rename", "tune", "benchmark",
            "profile", "monitor", "research", "compare", "prepare", "edit", "port", "integrate", "automate",
            "generate", "parse", "validate", "index", "query", "train", "evaluate", "measure", "publish", "release",
            "merge", "rebase", "backup", "restore", "sync", "import", "export", "convert", "setup", "triage",
            "reproduce", "bump", "patch", "audit", "scaffold", "tweak");
    private static final Set<String> SKIPPED = Set.of("the", "a", "an", "our", "my", "your", "their", "his", "her",
            "its", "this", "that", "these", "those", "some", "up", "new", "all", "more", "another", "again", "of", "to",
            "for", "in", "on", "and");
    private static final Pattern ADJECTIVE = Pattern.compile("(?i)(?:y|al|ic|ous|ive|ful|able|less)$");
    static final Pattern LINE = Pattern.compile(
            "\\s*+[-*+]\\s++(.+?)(?<!\\s)\\s*+(?:→|->)\\s*+Confidence:\\s*+(\\d{1,3})\\s*+%\\s*+\\|\\s*+Occurrences:\\s*+(\\d{1,9})\\s*+",
            Pattern.CASE_INSENSITIVE);

    /** A pattern: how it reads and how often it was seen. */
    record Skill(String name, int occurrences) {

        String line() {
            int confidence = (int) Math.min(95, Math.round(100.0 * occurrences / (occurrences + 1)));
            return "- " + name + " → Confidence: " + confidence + "% | Occurrences: " + occurrences;
        }

        String key() {
            return SkillPatterns.key(name);
        }
    }

    private SkillPatterns() {
    }

    /** The patterns of {@code texts}, each counted once per text, in order of first appearance. */
    static Map<String, Skill> count(List<String> texts) {
        Map<String, Skill> skills = new LinkedHashMap<>();
        for (String text : texts) {
            for (String name : patterns(text)) {
                skills.merge(key(name), new Skill(name, 1), (a, b) -> new Skill(a.name(), a.occurrences() + 1));
            }
        }
        return skills;
    }

    /** The distinct patterns of one text. */
    static Set<String> patterns(String text) {
        List<String> tokens = ContentWords.tokens(text);
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < tokens.size(); i++) {
            String verb = lemma(tokens.get(i));
            if (verb == null) {
                continue;
            }
            int j = i + 1;
            while (j < tokens.size() && SKIPPED.contains(tokens.get(j).toLowerCase(Locale.ROOT))) {
                j++;
            }
            if (j < tokens.size() && ContentWords.isContentWord(tokens.get(j))) {
                String object = tokens.get(j);
                if (ADJECTIVE.matcher(object).find() && j + 1 < tokens.size()
                        && ContentWords.isContentWord(tokens.get(j + 1))) {
                    object += " " + tokens.get(j + 1);
                }
                names.add(verb + " " + object);
            }
        }
        Map<String, String> byKey = new LinkedHashMap<>();
        names.forEach(name -> byKey.putIfAbsent(key(name), name));
        return new LinkedHashSet<>(byKey.values());
    }

    /** The verb's base form when {@code token} is a task verb ("fixed", "debugging", "deploys"), else null. */
    static String lemma(String token) {
        String word = token.toLowerCase(Locale.ROOT);
        if (VERBS.contains(word)) {
            return word;
        }
        for (String suffix : new String[] {"ing", "ed", "es", "s"}) {
            if (word.endsWith(suffix) && word.length() > suffix.length() + 2) {
                String base = word.substring(0, word.length() - suffix.length());
                for (String candidate : new String[] {base, base + "e", base.substring(0, base.length() - 1)}) {
                    if (VERBS.contains(candidate)) {
                        return candidate;
                    }
                }
            }
        }
        return null;
    }

    static String key(String name) {
        return String.join(" ", ContentWords.tokens(name).stream().map(ContentWords::stem).toList());
    }

    /** A skill line of seed 000's form, or empty. */
    static Optional<Skill> parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new Skill(StateLines.oneLine(m.group(1)), Integer.parseInt(m.group(3))));
    }

    /** Skills by occurrences, most first, then by name. */
    static List<Skill> ranked(Map<String, Skill> skills) {
        return skills.values().stream()
                .sorted(Comparator.comparingInt(Skill::occurrences).reversed().thenComparing(Skill::name)).toList();
    }
}
