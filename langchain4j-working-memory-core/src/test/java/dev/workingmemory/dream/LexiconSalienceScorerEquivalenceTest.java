package dev.workingmemory.dream;

import dev.workingmemory.testing.BenchData;
import dev.workingmemory.testing.LabelledSets;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The word-based lexicon scorer gives the scores the regular expressions gave ({@link LegacyLexiconSalienceScorer}),
 * on every user and assistant text at hand: the labelled messages of the extraction and ordinary sets, cue phrases
 * in their variants, and the 2,760 turns of LoCoMo's development conversations when {@code shared/bench} is there.
 */
class LexiconSalienceScorerEquivalenceTest {

    private static final List<String> PHRASES = List.of("IT FINALLY WORKS!!! The build is green.",
            "This is so frustrating, the deploy is still failing", "Thank you so much, you're the best!", "thanks!!!",
            "it works", "Great, it works now", "All tests are now passing", "tests pass", "test is green",
            "Ughhh, it's broken again", "Argh! wtf", "Wooohooo 🎉 shipped it", "woo-hoo!", "done🎉", "🎉🎉 yes",
            "a real break-through", "a breakthrough", "you are a lifesaver", "life-saver", "You're awesome",
            "I really appreciate it", "truly appreciate", "couldn't have done this without you", "kind of you",
            "it keeps crashing", "keep failing", "doesn't work", "does not work", "still not working", "sick of it",
            "I hate this", "nothing works", "error-prone code", "HTTP API", "The API is OK", "so glad, friend",
            "'great' idea", "works'", "it's alive!", "that did it", "we did it", "nailed it", "fixed it", "solved it",
            "This is great.\nGreat!", "frustrated and frustrating", "errors and bugs", "failure, failed, fails",
            "trust you", "happy to help", "thx", "appreciated", "success successful successfully");

    @Test
    void should_score_as_the_regular_expressions_did() {
        List<String> texts = new ArrayList<>(PHRASES);
        for (String set : List.of("/extraction", "/ordinary")) {
            LabelledSets.texts(set, "user", "assistant").forEach(text -> texts.add(text.strip()));
        }
        List<String> locomo = BenchData.locomoTurns(); // none on a clone without shared/bench (CI)
        texts.addAll(locomo);
        List<String> differ = new ArrayList<>();
        for (String text : texts) {
            for (SalienceSource source : List.of(SalienceSource.USER_MESSAGE, SalienceSource.ASSISTANT_MESSAGE)) {
                SalienceLevels now = LexiconSalienceScorer.INSTANCE.score(source, text);
                SalienceLevels before = LegacyLexiconSalienceScorer.INSTANCE.score(source, text);
                if (!close(now, before)) {
                    differ.add(source + " " + text.replace('\n', ' ') + ": " + before + " -> " + now);
                }
            }
        }
        System.out.println("Lexicon scorer: " + texts.size() + " texts (" + locomo.size() + " LoCoMo turns), "
                + differ.size() + " scores differ");
        differ.forEach(line -> System.out.println("  differs: " + line));
        assertThat(texts.size() - locomo.size()).as("phrases and labelled texts").isGreaterThan(200);
        assertThat(differ).isEmpty();
    }

    private static boolean close(SalienceLevels a, SalienceLevels b) {
        return Math.abs(a.dopamine() - b.dopamine()) < 1e-9 && Math.abs(a.cortisol() - b.cortisol()) < 1e-9
                && Math.abs(a.oxytocin() - b.oxytocin()) < 1e-9;
    }
}
