package dev.workingmemory.slots;

import dev.workingmemory.internal.ContentWords;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which todos a message says are done: a clause of it reports work done, and what it names is the todo's task.
 *
 * <p><b>Done.</b> A clause reports work done when it has a word for done ({@code done}, {@code finished},
 * {@code complete(d)}, {@code fixed}, {@code resolved}, {@code solved}, {@code merged}, {@code implemented}) or the
 * todo's own verb in the past ("update the README" → "updated"), as
 * <ul>
 * <li>a predicate at the clause's end: "the README's export section is updated", "pagination: done",
 *     "X is finished now" — what it names is the part before;</li>
 * <li>a report at the clause's start: "I fixed X", "we've merged X", "done with the pagination",
 *     "Fixed: X" — what it names is the part after;</li>
 * <li>a checked box: {@code - [x] X}.</li>
 * </ul>
 * A clause with a negation anywhere ("not", "never", "isn't"...) reports nothing, nor one whose words before the done
 * word make it a plan, a wish, a request or a doubt ("will", "should", "need", "let's", "make sure", "almost",
 * "I think", "be done"), or the condition of something else ("once X is merged", "tell me when it's done").
 * Questions are no reports, nor are code blocks and quoted lines.
 *
 * <p><b>Names the task.</b> What the clause names is its content words ({@link ContentWords}), without the done word
 * and words that only say "a task" ({@code todo}, {@code task}, {@code item}...); when that leaves nothing ("it's
 * done", "Fixed it."), the clause before it in the message is what it names. It names a todo when
 * <ul>
 * <li>they share two words or more, half of the clause's words or half of the todo's ("pagination of the export
 *     endpoint is done" for "add pagination to the export endpoint"); or</li>
 * <li>every word it names is in the todos it names by a word that tells them apart: a word no other item of the
 *     session holds ("done with the pagination", "the pagination and the README are done"), or any word when the
 *     done word is the todo's own verb ("README updated" for "update the README's export section"). A word the
 *     session's other items share ("export" beside a decision about the export job) names no todo on its own, as in
 *     a tf-idf weighting: common words tell nothing apart.</li>
 * </ul>
 * Of two todos a clause names, the one whose shared words the other shares too is not taken ("the export is done"
 * with "add pagination to the export endpoint" and "update the README's export section": which one?).
 *
 * <p>Thread-safe (stateless).
 */
final class Completions {

    /** Words that say work is done, whatever the work. */
    private static final Set<String> DONE = Set.of("done", "finished", "complete", "completed", "fixed", "resolved",
            "solved", "merged", "implemented");
    /** Words that make a clause report no work done wherever they are. */
    private static final Set<String> NEGATIONS = Set.of("not", "no", "never", "nothing", "none", "neither", "nor",
            "without");
    /**
     * Words that, before the done word, make the clause something else than a report: a plan, an obligation, a wish or
     * a request ("should be done", "let's get it done", "make sure the README is updated"), a doubt or a part ("almost
     * done", "I think it's fixed"), or the condition of something else ("once it's merged", "tell me when it's done").
     */
    private static final Set<String> NOT_YET = Set.of("will", "would", "shall", "should", "must", "can",
            "could", "may", "might", "need", "needs", "want", "wants", "going", "plan", "planning", "try", "trying", "hope",
            "expect", "be", "get", "gets", "getting", "let", "let's", "please", "make", "ensure", "remember", "forget",
            "almost", "nearly", "partly", "partially", "mostly", "half", "halfway", "soon", "probably", "maybe", "perhaps",
            "think", "guess", "believe", "suppose", "seems", "still", "yet", "if", "when", "whenever", "once", "after",
            "before", "until", "till", "unless", "whether");
    /** A clause starting with one of these is a question, with or without its question mark. */
    private static final Set<String> QUESTION_STARTS = Set.of("is", "are", "was", "were", "has", "have", "had", "did",
            "does", "do", "can", "could", "will", "would", "should", "shall", "may", "what", "why", "how", "which", "who");
    /** Words that may come after the done word of a predicate: "done now", "updated as well". */
    private static final Set<String> AFTER_PREDICATE = Set.of("now", "already", "too", "also", "finally", "completely",
            "fully", "entirely", "everywhere", "today", "as", "well");
    /** Words that may come before the done word of a report: "I've fixed", "we have just merged", "I'm done with". */
    private static final Set<String> BEFORE_REPORT = Set.of("i", "we", "you", "i've", "we've", "you've", "i'm", "we're",
            "you're", "have", "has", "just", "also", "finally", "now", "already", "all", "am", "are");
    /** Words that only say "a task": what the clause names is which one. */
    private static final Set<String> TASK_WORDS = stems("todo", "todos", "task", "item", "step", "part", "work", "bit",
            "piece");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:'[\\p{L}]+)*");
    /** Where a sentence splits into clauses: a semicolon, and a conjunction after a comma ("…, so it's done"), "but". */
    static final Pattern CLAUSE_BREAK = Pattern.compile(";|,\\s++(?=(?:and|but|so|then)\\b)|(?<!\\s)\\s++(?=but\\b)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CHECKED_BOX = Pattern.compile("^\\s*[-*+] \\[[xX]] (.+)$");

    private Completions() {
    }

    /**
     * @param text a user's or the model's message
     * @param held the items the session holds: its todos, and the other items that tell which words are common in it
     * @return the todos {@code text} says are done, as held
     */
    static List<SessionItem> find(String text, List<SessionItem> held) {
        if (held.stream().noneMatch(item -> Found.TODO.equals(item.slot()))) {
            return List.of(); // a session without todos: its other items' words are not needed
        }
        List<Todo> todos = new ArrayList<>();
        List<Set<String>> items = new ArrayList<>(held.size());
        for (SessionItem item : held) {
            Set<String> words = ContentWords.stems(item.content());
            items.add(words);
            if (Found.TODO.equals(item.slot()) && !words.isEmpty()) {
                todos.add(new Todo(item, words, verb(item.content())));
            }
        }
        Set<SessionItem> done = new LinkedHashSet<>();
        Set<String> before = Set.of(); // what the clause before names
        for (String line : Statements.proseLines(text)) {
            Matcher box = line.contains("[") ? CHECKED_BOX.matcher(line) : null;
            if (box != null && box.matches()) {
                Set<String> named = named(box.group(1), Set.of());
                done.addAll(taken(todos, items, todo -> new Report(named, false)));
                before = named;
                continue;
            }
            for (String sentence : Statements.sentences(line)) {
                boolean question = sentence.strip().endsWith("?");
                for (String clause : CLAUSE_BREAK.split(sentence.replace('\u2019', '\''))) {
                    if (!question) {
                        Set<String> fallback = before;
                        done.addAll(taken(todos, items, todo -> reported(clause, todo, fallback)));
                    }
                    Set<String> all = named(clause, Set.of());
                    if (!all.isEmpty()) {
                        before = all;
                    }
                }
            }
        }
        return List.copyOf(done);
    }

    /** A todo the session holds: the item, its content words, and its verb's stem when it starts with one. */
    private record Todo(SessionItem item, Set<String> words, String verb) {
    }

    /**
     * What a clause reports done about a todo's kind of work.
     *
     * @param named    the content words of what it names as done
     * @param ownVerb  whether its done word is the todo's own verb ("updated" for "update the README")
     */
    private record Report(Set<String> named, boolean ownVerb) {
    }

    /** What a clause reports for a todo: {@code null} when it reports nothing done of that kind of work. */
    @FunctionalInterface
    private interface Reader {
        Report read(Todo todo);
    }

    /**
     * The todos a clause reports done. It names a todo when they share two words that are half of the clause's or
     * of the todo's, or when each word it names is in a todo it names by a word of its own: a word of the todo alone
     * among the session's items, or any word when the done word is the todo's own verb ("README updated"). Of two
     * todos it names, the one whose shared words the other shares too is not taken.
     */
    private static List<SessionItem> taken(List<Todo> todos, List<Set<String>> items, Reader reader) {
        List<Todo> named = new ArrayList<>(todos.size());
        List<Set<String>> shared = new ArrayList<>(todos.size());
        List<Boolean> strong = new ArrayList<>(todos.size());
        Set<String> covered = new HashSet<>();
        Set<String> clause = null;
        for (Todo todo : todos) {
            Report report = reader.read(todo);
            if (report == null || report.named().isEmpty()) {
                continue;
            }
            clause = report.named();
            Set<String> common = new HashSet<>(report.named());
            common.retainAll(todo.words());
            int n = common.size();
            boolean overlap = n >= 2 && (2 * n >= report.named().size() || 2 * n >= todo.words().size());
            boolean own = n >= 1 && (n >= 2 || report.ownVerb() || distinctive(common, items));
            if (overlap || own) {
                named.add(todo);
                shared.add(common);
                strong.add(overlap);
                if (own) {
                    covered.addAll(common);
                }
            }
        }
        List<SessionItem> taken = new ArrayList<>(named.size());
        for (int i = 0; i < named.size(); i++) {
            boolean ambiguous = false;
            for (int j = 0; j < named.size() && !ambiguous; j++) {
                ambiguous = i != j && shared.get(j).containsAll(shared.get(i));
            }
            if (!ambiguous && (strong.get(i) || covered.containsAll(clause))) {
                taken.add(named.get(i).item());
            }
        }
        return taken;
    }

    /** Whether one item alone of those the session holds (the todo that has them) has any of the words. */
    private static boolean distinctive(Set<String> words, List<Set<String>> items) {
        int holding = 0;
        for (Set<String> item : items) {
            if (!Collections.disjoint(item, words) && ++holding > 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * What {@code clause} names as done for {@code todo}'s kind of work: the content words before its done word (a
     * predicate) or after it (a report), or {@code before} when it names nothing itself; {@code null} when it reports
     * nothing done.
     */
    private static Report reported(String clause, Todo todo, Set<String> before) {
        String text = Statements.CONNECTORS.matcher(clause.strip()).replaceFirst("");
        List<int[]> words = new ArrayList<>();
        List<String> lower = new ArrayList<>();
        Matcher word = WORD.matcher(text);
        while (word.find()) {
            words.add(new int[]{word.start(), word.end()});
            lower.add(word.group().toLowerCase(Locale.ROOT));
        }
        if (lower.isEmpty() || QUESTION_STARTS.contains(lower.get(0))) {
            return null;
        }
        for (String each : lower) {
            if (NEGATIONS.contains(each) || each.endsWith("n't")) {
                return null;
            }
        }
        for (int i = 0; i < lower.size(); i++) {
            String each = lower.get(i);
            boolean ownVerb = todo.verb() != null && each.endsWith("ed") && ContentWords.stem(each).equals(todo.verb());
            if (!ownVerb && !DONE.contains(each)) {
                if (NOT_YET.contains(each) || each.endsWith("'ll") || each.endsWith("'d")) {
                    return null; // before the done word: a plan, a wish, a doubt or a condition
                }
                continue;
            }
            String done = ContentWords.stem(each);
            if (AFTER_PREDICATE.containsAll(lower.subList(i + 1, lower.size()))) {
                return new Report(named(text.substring(0, words.get(i)[0]), Set.of(done), before), ownVerb);
            }
            if (BEFORE_REPORT.containsAll(lower.subList(0, i))) {
                return new Report(named(text.substring(words.get(i)[1]), Set.of(done), before), ownVerb);
            }
            // "the fixed test is done": a done word inside what the clause names
        }
        return null;
    }

    private static Set<String> named(String text, Set<String> doneWords, Set<String> before) {
        Set<String> named = named(text, doneWords);
        return named.isEmpty() ? before : named;
    }

    /** The content words of {@code text} that say which task: without the done word and the words for "a task". */
    private static Set<String> named(String text, Set<String> doneWords) {
        Set<String> named = ContentWords.stems(text);
        named.removeAll(TASK_WORDS);
        named.removeAll(doneWords);
        return named;
    }

    /** The stem of the todo's first word when it is a word of letters that may be a verb ("update", "add"), else null. */
    private static String verb(String todo) {
        Matcher first = WORD.matcher(todo);
        if (!first.find() || first.start() > 0) {
            return null;
        }
        String word = first.group();
        return word.chars().allMatch(Character::isLetter) && ContentWords.isContentWord(word)
                ? ContentWords.stem(word) : null;
    }

    private static Set<String> stems(String... words) {
        Set<String> stems = new HashSet<>();
        for (String word : words) {
            stems.add(ContentWords.stem(word));
        }
        return Set.copyOf(stems);
    }
}
