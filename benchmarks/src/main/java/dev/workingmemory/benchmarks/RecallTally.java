package dev.workingmemory.benchmarks;

/**
 * Recall over questions, as the recall harnesses count it: questions whose evidence was all found, those with some
 * found, the tokens returned, the questions some of whose hits were marked earlier than another (a hit that states
 * the same thing as a newer one) and, for knowledge updates, whether the new value came first.
 *
 * <p>Not thread-safe.
 */
final class RecallTally {
    int questions;
    int all;
    int any;
    long tokens;
    int updates;
    int updatesFirst;
    int marked;

    void add(int found, int evidence, int returnedTokens, boolean someMarkedEarlier, Boolean updateFirst) {
        questions++;
        marked += someMarkedEarlier ? 1 : 0;
        all += found == evidence ? 1 : 0;
        any += found > 0 ? 1 : 0;
        tokens += returnedTokens;
        if (updateFirst != null) {
            updates++;
            updatesFirst += updateFirst ? 1 : 0;
        }
    }

    void add(RecallTally other) {
        questions += other.questions;
        all += other.all;
        any += other.any;
        tokens += other.tokens;
        updates += other.updates;
        updatesFirst += other.updatesFirst;
        marked += other.marked;
    }

    double all() {
        return questions == 0 ? 0 : all / (double) questions;
    }

    double any() {
        return questions == 0 ? 0 : any / (double) questions;
    }

    double tokens() {
        return questions == 0 ? 0 : tokens / (double) questions;
    }

    /** @return the share of questions with a hit marked earlier than another */
    double marked() {
        return questions == 0 ? 0 : marked / (double) questions;
    }

    double updateFirst() {
        return updates == 0 ? 0 : updatesFirst / (double) updates;
    }

    @Override
    public String toString() {
        return String.format("recall_all@10=%.3f recall_any@10=%.3f tokens@10=%.0f questions=%d marked_earlier=%.2f%s",
                all(), any(), tokens(), questions, marked(),
                updates == 0 ? "" : String.format(" update_first=%.2f", updateFirst()));
    }
}
