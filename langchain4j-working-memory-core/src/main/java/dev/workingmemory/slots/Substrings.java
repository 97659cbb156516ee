package dev.workingmemory.slots;

import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.CharacterRunAutomaton;
import org.apache.lucene.util.automaton.Operations;

import java.util.Collection;
import java.util.List;

/**
 * Whether a text holds one of a fixed set of strings, in one pass over the text: a Lucene automaton of "anything, then
 * one of the strings" (the automaton Aho and Corasick's search builds), where {@link String#contains} for each string
 * reads the text once per string. The tool cues and the package messages' cues are some fifty and thirty strings,
 * asked of every line of every tool result while a memory's session waits.
 *
 * <p>Thread-safe (immutable).
 */
final class Substrings {

    private final CharacterRunAutomaton automaton;
    /** The ASCII characters a string starts with: from the start state, any other character leads back to it. */
    private final boolean[] starts = new boolean[128];

    private Substrings(CharacterRunAutomaton automaton, Collection<String> strings) {
        this.automaton = automaton;
        for (String string : strings) {
            char first = string.charAt(0);
            if (first < starts.length) {
                starts[first] = true;
            }
        }
    }

    /** @param strings non-empty strings, case-sensitive */
    static Substrings of(Collection<String> strings) {
        List<Automaton> each = strings.stream().map(Automata::makeString).toList();
        Automaton anyThenOne = Operations.concatenate(Automata.makeAnyString(), Operations.union(each));
        return new Substrings(new CharacterRunAutomaton(
                Operations.determinize(anyThenOne, Operations.DEFAULT_DETERMINIZE_WORK_LIMIT)), strings);
    }

    /** Whether {@code text} holds one of the strings: {@code strings.stream().anyMatch(text::contains)}. */
    boolean in(String text) {
        int state = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (state == 0 && c < starts.length && !starts[c]) {
                continue; // most characters of most texts: no string starts here, and none is under way
            }
            state = automaton.step(state, c);
            if (automaton.isAccept(state)) {
                return true;
            }
        }
        return false;
    }
}
