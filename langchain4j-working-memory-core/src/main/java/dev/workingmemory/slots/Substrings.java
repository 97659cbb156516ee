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

    private Substrings(CharacterRunAutomaton automaton) {
        this.automaton = automaton;
    }

    /** @param strings non-empty strings, case-sensitive */
    static Substrings of(Collection<String> strings) {
        List<Automaton> each = strings.stream().map(Automata::makeString).toList();
        Automaton anyThenOne = Operations.concatenate(Automata.makeAnyString(), Operations.union(each));
        return new Substrings(new CharacterRunAutomaton(
                Operations.determinize(anyThenOne, Operations.DEFAULT_DETERMINIZE_WORK_LIMIT)));
    }

    /** Whether {@code text} holds one of the strings: {@code strings.stream().anyMatch(text::contains)}. */
    boolean in(String text) {
        int state = 0;
        for (int i = 0; i < text.length(); i++) {
            state = automaton.step(state, text.charAt(i));
            if (automaton.isAccept(state)) {
                return true;
            }
        }
        return false;
    }
}
