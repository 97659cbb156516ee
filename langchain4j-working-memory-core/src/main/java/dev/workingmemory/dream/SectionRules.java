package dev.workingmemory.dream;

import dev.workingmemory.internal.ContentWords;
import dev.workingmemory.notes.Note;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules that put a note into a section of the state, for the offline synthesizer. Thread-safe (immutable).
 *
 * <p>A note whose text ends with {@code ?} or holds a curiosity cue ("wonder", "unknown", "unclear", "not sure",
 * "need to find out", …) goes to Curiosity Gaps. Otherwise each section with a lexicon scores the note: one point per
 * cue found in its text or tags (a cue of four letters or more matches the start of a word: "prefer" matches
 * "prefers"; a shorter one the whole word; a cue of several words the phrase). The highest score wins; a tie goes to
 * the section first in the order Active Context, The Bond, The Niche, The Phenotype, then the others in schema order.
 * A note no lexicon matches goes to Active Context, or to the first configured section that is not Crystal Pointers,
 * Curiosity Gaps or Emerging Skills.
 */
final class SectionRules {

    static final Map<String, List<String>> DEFAULT_LEXICON = Map.of(
            StateSchema.BOND, List.of("name", "named", "call me", "called", "prefer", "like", "likes", "love", "loves",
                    "hate", "hates", "dislike", "enjoy", "favorite", "favourite", "feel", "feels", "felt", "happy",
                    "sad", "upset", "angry", "anxious", "excited", "grateful", "thank", "trust", "relationship", "friend",
                    "family", "wife", "husband", "partner", "kid", "kids", "children", "daughter", "son", "birthday",
                    "lives in", "born", "hobby", "hobbies", "personal", "personality", "communication", "tone", "values",
                    "background", "works as", "job", "asked to", "explicitly", "wants me", "oxytocin", "bond",
                    "bonding", "pronoun", "timezone", "time zone", "speaks"),
            StateSchema.ACTIVE_CONTEXT, List.of("goal", "deadline", "due", "task", "todo", "to-do", "decid",
                    "decision", "agreed", "plan", "next step", "working on", "currently", "current", "project", "sprint",
                    "milestone", "release", "launch", "ship", "meeting", "today", "tomorrow", "this week", "next week",
                    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february",
                    "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
                    "blocker", "blocked", "bug", "fix", "error", "fail", "broken", "issue", "problem", "avoid", "never",
                    "don't", "must not", "friction", "win", "success", "solved", "breakthrough", "finished",
                    "completed", "progress", "migration", "migrate", "refactor", "implement", "dopamine", "cortisol"),
            StateSchema.PHENOTYPE, List.of("assistant", "agent", "bot", "persona", "respond", "reply", "replies",
                    "answer", "explain", "behav", "capabilit", "identity", "self-concept", "the ai", "you are",
                    "your role", "my role", "i should", "i will", "voice"),
            StateSchema.NICHE, List.of("tool", "stack", "environment", "platform", "ecosystem", "framework", "librar",
                    "sdk", "api", "cli", "ide", "editor", "intellij", "vscode", "vim", "emacs", "linux", "ubuntu",
                    "macos", "windows", "wsl", "docker", "kubernetes", "k8s", "aws", "gcp", "azure", "cloud", "server",
                    "database", "postgres", "mysql", "sqlite", "redis", "kafka", "github", "gitlab", "jira", "slack",
                    "notion", "maven", "gradle", "npm", "java", "kotlin", "python", "typescript", "javascript", "js",
                    "rust", "golang", "node", "react", "spring", "version", "install", "infrastructure", "pipeline",
                    "jenkins", "terraform", "repo", "repository", "marketplace", "reputation", "earning", "usdc"));

    private static final List<String> CURIOSITY_CUES = List.of("wonder", "unknown", "unclear", "not sure",
            "need to find out", "find out", "figure out", "open question", "curious", "don't know", "do not know",
            "no idea", "to explore", "worth exploring", "to learn");
    private static final List<String> TIE_ORDER = List.of(StateSchema.ACTIVE_CONTEXT, StateSchema.BOND,
            StateSchema.NICHE, StateSchema.PHENOTYPE);

    private final Map<String, List<String>> lexicon;

    SectionRules(Map<String, List<String>> lexicon) {
        Map<String, List<String>> copy = new HashMap<>();
        lexicon.forEach((section, cues) -> copy.put(section.toLowerCase(Locale.ROOT),
                cues.stream().map(c -> c.strip().toLowerCase(Locale.ROOT)).filter(c -> !c.isEmpty()).toList()));
        this.lexicon = Map.copyOf(copy);
    }

    /** The section of {@code schema} that {@code note} belongs in. */
    String classify(Note note, StateSchema schema) {
        String text = " " + String.join(" ", ContentWords.tokens(note.text() + " " + String.join(" ", note.tags()))
                .stream().map(t -> t.toLowerCase(Locale.ROOT)).toList()) + " ";
        if (schema.has(StateSchema.CURIOSITY_GAPS)
                && (note.text().strip().endsWith("?") || CURIOSITY_CUES.stream().anyMatch(cue -> matches(text, cue)))) {
            return StateSchema.CURIOSITY_GAPS;
        }
        String best = null;
        int bestScore = 0;
        for (StateSchema.Section section : byTieOrder(schema)) {
            int score = score(text, lexicon.getOrDefault(section.name().toLowerCase(Locale.ROOT), List.of()));
            if (score > bestScore) {
                best = section.name();
                bestScore = score;
            }
        }
        return best != null ? best : fallback(schema);
    }

    private static List<StateSchema.Section> byTieOrder(StateSchema schema) {
        List<StateSchema.Section> ordered = new ArrayList<>();
        TIE_ORDER.forEach(name -> schema.section(name).ifPresent(ordered::add));
        schema.sections().stream().filter(s -> !ordered.contains(s)).forEach(ordered::add);
        return ordered;
    }

    static String fallback(StateSchema schema) {
        if (schema.has(StateSchema.ACTIVE_CONTEXT)) {
            return StateSchema.ACTIVE_CONTEXT;
        }
        return schema.sections().stream().map(StateSchema.Section::name)
                .filter(name -> !isSpecial(name)).findFirst().orElse(StateSchema.CRYSTAL_POINTERS);
    }

    /** Sections the offline synthesizer fills by their own rules, never with notes by lexicon. */
    static boolean isSpecial(String name) {
        return name.equalsIgnoreCase(StateSchema.CRYSTAL_POINTERS) || name.equalsIgnoreCase(StateSchema.CURIOSITY_GAPS)
                || name.equalsIgnoreCase(StateSchema.EMERGING_SKILLS);
    }

    private static int score(String text, List<String> cues) {
        int score = 0;
        for (String cue : cues) {
            if (matches(text, cue)) {
                score++;
            }
        }
        return score;
    }

    /** {@code text} is space-separated lower-case tokens with a space at each end. */
    private static boolean matches(String text, String cue) {
        String normalized = String.join(" ", ContentWords.tokens(cue)).toLowerCase(Locale.ROOT);
        if (normalized.isEmpty()) {
            return false;
        }
        boolean prefix = normalized.length() >= 4;
        int from = 0;
        while (true) {
            int at = text.indexOf(" " + normalized, from);
            if (at < 0) {
                return false;
            }
            int end = at + 1 + normalized.length();
            if (prefix || text.charAt(end) == ' ') {
                return true;
            }
            from = at + 1;
        }
    }
}
