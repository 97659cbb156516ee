package dev.workingmemory.slots;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decisions and todos stated in what the user or the model says, sentence by sentence.
 *
 * <p>Decisions: "let's use / go with / keep / switch to …", "we decided / agreed / chose …", "we'll go with …",
 * "we're going with …", "decision: …" / "decided: …", and rules given as imperatives at the start of a sentence
 * ("don't …", "never …", "always …", "from now on …", "going forward …"). The item is the sentence. Todos:
 * "TODO …", "next, …" / "next step: …", "we still need to …", "don't forget to …" / "remember to …", "we need to …"
 * at the start of a sentence, requirements ("the endpoint should return 404 …", not hedged), work put off ("I'll
 * fix … after the release"), "remaining: …", list items under a "Next steps:" heading and unchecked Markdown boxes
 * ({@code - [ ] …}). The item is what is to be done.
 *
 * <p>Questions ("should we use Redis?") and conditions ("if we decided …") state nothing; "let me …", "I don't
 * know", "don't worry" are no decisions. Fenced code blocks, quoted lines and indented lines are skipped.
 * Thread-safe (stateless).
 */
final class Statements {

    private static final String LEAD = "^(?:(?:ok|okay|so|and|also|then|now|alright|right|great|good|fine|but|well|yes|no"
            + "|first|finally|after that|for now|in that case)\\b[,:]?\\s+)*";
    /** Words that lead into a sentence and say nothing of it ("ok, so", "great,", "no,"). */
    static final Pattern CONNECTORS = Pattern.compile(LEAD, Pattern.CASE_INSENSITIVE);
    private static final Pattern CONDITION = Pattern.compile("^(?:if|when|whether|unless|once|in case)\\b", Pattern.CASE_INSENSITIVE);

    static final Pattern TODO_MARKER = Pattern.compile("^(?:todo|to-do)\\b\\s*+[:-]?\\s*+(.+)$", Pattern.CASE_INSENSITIVE);
    static final Pattern TODO_NEXT = Pattern.compile(
            "^next(?: steps?)?\\s*+[,:]\\s*+(?:(?:i|we)(?:'ll| will| should| need to| have to| must| can)\\s++)?(.+)$"
                    + "|^next,? (?:i|we)(?:'ll| will| should| need to| have to| must)\\s++(.+)$", Pattern.CASE_INSENSITIVE);
    // white space before a task is taken whole, as TODO_MARKER's: a sentence is stripped, so a task follows it
    static final Pattern TODO_STILL = Pattern.compile(
            "\\b(?:still|also) (?:need|have) to\\s++(.+)$|\\b(?:remember|don't forget|do not forget) to\\s++(.+)$"
                    + "|^(?:(?:in|for|on|at|before|after) [^,]{1,80}?,? )?we (?:need|have) to\\s++(.+)$|^(?:remaining|still to do|left to do|open items?)\\s*+:\\s*+(.+)$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CHECKBOX = Pattern.compile("^\\s*[-*+] \\[ ] (.+)$");

    /**
     * Work put off to later by whoever speaks: "I will fix the importer tests after the release", "I'll keep the
     * column for now and drop it in a follow-up migration". The todo is what is put off.
     */
    private static final Pattern TODO_LATER = Pattern.compile(
            "^(?:i|we)(?:'ll| will| am going to|'m going to| are going to|'re going to) (?:.{1,200}? for now,? and )?"
                    + "(\\w+ .{1,300}? (?:later|afterwards|tomorrow|next (?:week|sprint|time)|in a (?:follow-up|separate|later|next)\\b.{0,40}"
                    + "|after (?:the|this|that|we|it|you|i)\\b.{0,60}))$", Pattern.CASE_INSENSITIVE);
    /**
     * A requirement: "the endpoint should return 404 …", "we should add retries …". Not hedged ("should probably"),
     * not an expectation ("this should work now", "it should be fine"), not advice to the reader ("you should …").
     */
    private static final Pattern TODO_SHOULD = Pattern.compile(
            "^(?:we|it|(?:the|this|that|our|all|every|each) [\\w/.-]{1,40}(?: [\\w/.-]{1,40}){0,3}) (?:should|must) "
                    + "(?!probably|maybe|perhaps|not|never|be\\b|work|pass|fail|have|now|already|still|also be|help|look|get\\b"
                    + "|\\w+ (?:it|that|this)$)(\\w+ .+)$", Pattern.CASE_INSENSITIVE);
    static final Pattern DECISION_MARKER = Pattern.compile("^(?:decision|decided)\\s*+:\\s*+(.+)$", Pattern.CASE_INSENSITIVE);
    private static final Pattern DECISION = Pattern.compile(
            "\\blet'?s (?:not \\w+|use|go with|stick with|keep|switch to|move to|adopt|pick|choose|drop|avoid|store|name"
                    + "|call|put|make|rename|split|merge|replace|remove)\\b"
                    + "|\\b(?:we|i)(?:'ve| have)? (?:decided|agreed|chose|opted|settled)\\b"
                    + "|\\b(?:we|i)(?:'ll| will| are going to|'re going to| am going to|'m going to) (?:go with|stick with|switch to|adopt"
                    + "|keep (?!\\w+ing\\b|an eye|in mind|it in mind|that in mind|trying|looking|digging)(?:the|this|that|these|those|our|your|it)\\b)"
                    + "|\\bwe(?:'ll| will| are going to|'re going to) use\\b"
                    + "|(?:^|\\b(?:we|i)(?:'re| are|'m| am) )going with\\b|\\b(?:we|i) went with\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RULE = Pattern.compile(
            "^(?:please )?(?:(?:don't|do not|never)\\s+(?!worry|forget|know|think|understand|see|mind|bother|hesitate|have|need|care)\\w+"
                    + "|always\\s+\\w+|from now on\\b|going forward\\b|from here on\\b"
                    // a choice given as an order: "use pnpm, not npm", "go with option B", "keep the old endpoint"
                    + "|(?:use|go with|stick with|stick to|switch to|prefer|avoid|keep (?!going|trying|looking|it up|in mind|an eye)"
                    + "(?:the|this|that|these|those|our|your|it|all|every)\\b))", Pattern.CASE_INSENSITIVE);
    private static final Pattern TODO_MAKE_SURE = Pattern.compile("^make sure (?:that )?(.+)$", Pattern.CASE_INSENSITIVE);
    /** A heading whose list items below are todos ("Next steps:", "TODO:", "Remaining:"). */
    private static final Pattern TODO_HEADING = Pattern.compile(
            "^(?:#+ )?(?:next steps?|todos?|to-?dos?|remaining(?: work)?|still to do|left to do|open items|follow-ups?)\\s*:?\\s*$",
            Pattern.CASE_INSENSITIVE);
    static final Pattern LIST_ITEM = Pattern.compile("^\\s*+(?:[-*+]|\\d{1,3}[.)])\\s++(?:\\[ ]\\s++)?(.+)$");

    private static final int MAX_SENTENCE = 400;
    /** Longer lines are no {@link #TODO_HEADING}. */
    private static final int MAX_HEADING = 40;

    /** The first words of {@link #LEAD}, {@link #CONDITION} and {@link #RULE}; the words one of {@link #DECISION} and {@link #TODO_STILL} needs. */
    private static final Set<String> LEAD_WORDS = Set.of("ok", "okay", "so", "and", "also", "then", "now", "alright",
            "right", "great", "good", "fine", "but", "well", "yes", "no", "first", "finally", "after", "for", "in");
    private static final Set<String> CONDITION_WORDS = Set.of("if", "when", "whether", "unless", "once", "in");
    private static final Set<String> RULE_WORDS = Set.of("please", "don't", "do", "never", "always", "from", "going", "use",
            "go", "stick", "switch", "prefer", "avoid", "keep");
    private static final List<String> DECISION_CUES = List.of("let", "decided", "agreed", "chose", "opted", "settled",
            "'ll ", " will ", "going to", "going with", "went with");
    private static final List<String> LATER_CUES = List.of("later", "afterwards", "tomorrow", "next ", "in a ", "after ");
    /** Words that put a requirement off or in doubt ("we should cache it, but not now"). */
    private static final List<String> HEDGES = List.of("not now", "not yet", "someday", "eventually", "at some point",
            "in theory", "ideally");
    private static final List<String> TODO_CUES = List.of("need to", "have to", "remember", "forget", "remaining",
            "still to do", "left to do", "open item");

    private Statements() {
    }

    /** @param lines the message's {@linkplain #proseLines prose lines} */
    static void find(List<String> lines, Found found) {
        boolean todoList = false;
        for (String line : lines) {
            Matcher box = line.contains("[ ]") ? CHECKBOX.matcher(line) : null;
            if (box != null && box.matches()) {
                found.add(Found.TODO, box.group(1));
                continue;
            }
            String stripped = line.strip();
            if (stripped.length() <= MAX_HEADING && TODO_HEADING.matcher(stripped).matches()) {
                todoList = true;
                continue;
            }
            Matcher item = todoList ? LIST_ITEM.matcher(line) : null;
            if (item != null && item.matches()) {
                found.add(Found.TODO, trimEnd(item.group(1)));
                continue;
            }
            List<String> sentences = sentences(line);
            for (String sentence : sentences) {
                statement(sentence, found);
            }
            // "The index is missing. Next steps:" ends a line of prose with the heading of a list
            String last = sentences.get(sentences.size() - 1).strip();
            todoList = last.length() <= MAX_HEADING && TODO_HEADING.matcher(last).matches();
        }
    }

    private static void statement(String raw, Found found) {
        String sentence = stripListMarker(raw.strip().replace('\u2019', '\''));
        if (sentence.isEmpty() || sentence.endsWith("?") || sentence.length() > MAX_SENTENCE) {
            return;
        }
        // every pattern below needs one of its cue words: most sentences of a chat have none, and are let go
        // after a few indexOf calls instead of a dozen regular expressions
        String lower = sentence.toLowerCase(Locale.ROOT);
        String clause = sentence;
        if (LEAD_WORDS.contains(firstWord(lower))) {
            clause = CONNECTORS.matcher(sentence).replaceFirst("");
            lower = clause.toLowerCase(Locale.ROOT);
        }
        if (CONDITION_WORDS.contains(firstWord(lower)) && CONDITION.matcher(clause).lookingAt()) {
            return;
        }
        Matcher m;
        if (lower.startsWith("to") && (m = TODO_MARKER.matcher(clause)).matches()) {
            found.add(Found.TODO, trimEnd(m.group(1)));
            return;
        }
        if (lower.startsWith("next") && (m = TODO_NEXT.matcher(clause)).matches()) {
            found.add(Found.TODO, trimEnd(m.group(1) != null ? m.group(1) : m.group(2)));
            return;
        }
        if (lower.startsWith("make sure") && (m = TODO_MAKE_SURE.matcher(clause)).matches()) {
            found.add(Found.TODO, trimEnd(m.group(1)));
            return;
        }
        if ((lower.startsWith("decision") || lower.startsWith("decided")) && (m = DECISION_MARKER.matcher(clause)).matches()) {
            found.add(Found.DECISION, trimEnd(m.group(1)));
            return;
        }
        if (lower.contains("should") || lower.contains("must")) {
            if (!Texts.containsAny(lower, HEDGES) && (m = TODO_SHOULD.matcher(clause)).matches()) {
                found.add(Found.TODO, trimEnd(m.group(1)));
                return;
            }
        }
        if (Texts.containsAny(lower, DECISION_CUES) && DECISION.matcher(clause).find()
                || RULE_WORDS.contains(firstWord(lower)) && RULE.matcher(clause).lookingAt()) {
            found.add(Found.DECISION, trimEnd(sentence));
        }
        if (Texts.containsAny(lower, LATER_CUES) && (m = TODO_LATER.matcher(clause)).matches()) {
            found.add(Found.TODO, trimEnd(m.group(1)));
            return;
        }
        if (Texts.containsAny(lower, TODO_CUES) && (m = TODO_STILL.matcher(clause)).find()) {
            for (int g = 1; g <= m.groupCount(); g++) {
                if (m.group(g) != null) {
                    found.add(Found.TODO, trimEnd(m.group(g)));
                    break;
                }
            }
        }
    }

    /** The leading word of a lower-case sentence (letters and apostrophes), {@code ""} when it starts otherwise. */
    private static String firstWord(String lower) {
        int end = 0;
        while (end < lower.length() && (Character.isLetter(lower.charAt(end)) || lower.charAt(end) == '\'')) {
            end++;
        }
        return lower.substring(0, end);
    }

    /** The lines of prose: without fenced code blocks, quoted ({@code >}) lines and indented (code) lines. */
    static List<String> proseLines(String text) {
        List<String> prose = new ArrayList<>();
        boolean fenced = false;
        for (String line : Texts.lines(text)) {
            String stripped = line.strip();
            if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (fenced || stripped.startsWith(">") || line.startsWith("    ") || line.startsWith("\t")) {
                continue;
            }
            prose.add(line);
        }
        return prose;
    }

    /**
     * Splits at {@code .}, {@code !} or {@code ?} followed by a space and an upper-case letter, digit or quote, so that
     * "e.g. this" and "App.java" stay whole. The end mark stays with its sentence.
     */
    static List<String> sentences(String line) {
        List<String> sentences = new ArrayList<>();
        int start = 0;
        for (int i = 0; i + 2 < line.length(); i++) {
            char c = line.charAt(i);
            if ((c == '.' || c == '!' || c == '?') && line.charAt(i + 1) == ' ') {
                int next = i + 1;
                while (next < line.length() && line.charAt(next) == ' ') {
                    next++;
                }
                char first = next < line.length() ? line.charAt(next) : 'a';
                if (Character.isUpperCase(first) || Character.isDigit(first) || first == '"' || first == '\'') {
                    sentences.add(line.substring(start, i + 1));
                    start = next;
                    i = next - 1;
                }
            }
        }
        sentences.add(line.substring(start));
        return sentences;
    }

    private static String stripListMarker(String sentence) {
        if (sentence.startsWith("- ") || sentence.startsWith("* ") || sentence.startsWith("+ ")) {
            return sentence.substring(2).strip();
        }
        int i = 0;
        while (i < sentence.length() && i < 3 && Character.isDigit(sentence.charAt(i))) {
            i++;
        }
        if (i > 0 && i + 1 < sentence.length() && (sentence.charAt(i) == '.' || sentence.charAt(i) == ')')
                && sentence.charAt(i + 1) == ' ') {
            return sentence.substring(i + 2).strip();
        }
        return sentence;
    }

    private static String trimEnd(String text) {
        String t = text.strip();
        int end = t.length();
        while (end > 0 && ".!;:,".indexOf(t.charAt(end - 1)) >= 0) {
            end--;
        }
        return t.substring(0, end);
    }
}
