package dev.workingmemory.internal;

import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.CharacterRunAutomaton;
import org.apache.lucene.util.automaton.Operations;

import java.util.Collection;
import java.util.List;

/**
 * Whether a text holds one of a fixed set of strings, in one pass over the text: a Lucene automaton of "anything, then
 * one of the strings" (the automaton Aho and Corasick's search builds), where {@link String#contains} for each string
 * reads the text once per string. The session's tool cues and package messages' cues are some fifty and thirty
 * strings, asked of every line of every tool result while a memory's session waits; {@link ErrorLines}' markers are
 * looked for in a whole build log.
 *
 * <p>Thread-safe (immutable).
 */
public final class Substrings {

    private final CharacterRunAutomaton automaton;
    /**
     * The Latin-1 characters a string starts with: from the start state, any other character leads back to it (one
     * table for all 256, so that random bytes do not make the check branch unpredictably).
     */
    private final boolean[] starts = new boolean[256];
    /** Whether a string starts with a character past Latin-1 (else, from the start state, those are skipped too). */
    private final boolean otherStarts;

    private Substrings(CharacterRunAutomaton automaton, Collection<String> strings) {
        this.automaton = automaton;
        boolean other = false;
        for (String string : strings) {
            char first = string.charAt(0);
            if (first < starts.length) {
                starts[first] = true;
            } else {
                other = true;
            }
        }
        this.otherStarts = other;
    }

    /** @param strings non-empty strings, case-sensitive */
    public static Substrings of(Collection<String> strings) {
        List<Automaton> each = strings.stream().map(Automata::makeString).toList();
        Automaton anyThenOne = Operations.concatenate(Automata.makeAnyString(), Operations.union(each));
        return new Substrings(new CharacterRunAutomaton(
                Operations.determinize(anyThenOne, Operations.DEFAULT_DETERMINIZE_WORK_LIMIT)), strings);
    }

    /** Whether {@code text} holds one of the strings: {@code strings.stream().anyMatch(text::contains)}. */
    public boolean in(String text) {
        return end(text, 0, text.length()) >= 0;
    }

    /**
     * Where the first of the strings that lies within {@code text[from, to)} ends (the offset after its last
     * character), or -1 when none does.
     */
    public int end(String text, int from, int to) {
        int state = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (state == 0 && (c < starts.length ? !starts[c] : !otherStarts)) {
                continue; // most characters of most texts: no string starts here, and none is under way
            }
            state = automaton.step(state, c);
            if (automaton.isAccept(state)) {
                return i + 1;
            }
        }
        return -1;
    }
}
