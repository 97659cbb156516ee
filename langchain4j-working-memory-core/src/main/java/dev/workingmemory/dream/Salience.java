package dev.workingmemory.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workingmemory.crystal.Provenance;
import dev.workingmemory.internal.Ensure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The salience levels of one resource (seed 000's "hormones"): dopamine, cortisol and oxytocin, each from 0 to 1.
 *
 * <ul>
 *   <li><b>Raised</b> by {@link #observe} through a {@link SalienceScorer} on each user and assistant message and
 *   tool result: a level {@code l} raised by {@code r} becomes {@code 1 - (1 - l)(1 - r)}.</li>
 *   <li><b>Decaying</b> exponentially with the time of the {@link Clock}: halved every {@code halfLife} (default 2
 *   hours), computed when read, so nothing has to tick.</li>
 *   <li><b>Auto-notes</b> ({@link #autoNotes()}): a level above the threshold (default 0.7) gives an
 *   {@link AutoNote} when it was raised since its last auto-note and its last one is at least
 *   {@code autoNoteInterval} old (default 30 minutes): at most one per hormone per interval, and never twice for the
 *   same spike. The note's context is the message that raised the level most since the last note, quoted when the
 *   user or the model wrote it; a tool result is named, never quoted (see {@link dev.workingmemory.crystal.Provenance}).</li>
 *   <li><b>Mood</b>: {@link SalienceLevels#mood()} of {@link #levels()}.</li>
 *   <li><b>Persistence</b>: {@link #snapshot()} and {@link #restore} to and from JSON.</li>
 * </ul>
 * A scripted test:
 * <pre>{@code
 * Salience salience = Salience.builder().clock(clock).build();
 * salience.observe(SalienceSource.USER_MESSAGE, "IT FINALLY WORKS!!! The build is green.");
 * List<AutoNote> notes = salience.autoNotes(); // one: "[AUTO] Hormonal event: dopamine spike (…)"
 * }</pre>
 *
 * <p>Thread-safe: every method is synchronized.
 */
public final class Salience {

    private static final Logger log = LoggerFactory.getLogger(Salience.class);
    private static final int CONTEXT_CHARS = 120;

    private final Clock clock;
    private final Duration halfLife;
    private final SalienceScorer scorer;
    private final double autoNoteThreshold;
    private final Duration autoNoteInterval;
    private final double autoNoteImportance;

    private final Map<Hormone, Track> tracks = new EnumMap<>(Hormone.class);
    /** When the levels were last decayed; {@code null} until first used (creating a salience reads no clock). */
    private Instant updated;

    /** What is known of one hormone. */
    private static final class Track {
        double level;
        Instant lastAutoNote;
        boolean raisedSinceNote;
        /** What raised the level most since the last note, on one line; made from the two below when first read. */
        private String context;
        private SalienceSource contextSource;
        private String contextText;
        double contextRaise;

        void context(String context) {
            this.context = context;
            this.contextSource = null;
            this.contextText = null;
        }

        /** Keeps the message that raised the level, to describe it only if a note or a snapshot needs it. */
        void context(SalienceSource source, String text) {
            this.context = null;
            this.contextSource = source;
            this.contextText = text.length() > CONTEXT_CHARS * 4 ? text.substring(0, CONTEXT_CHARS * 4) : text;
        }

        String context() {
            if (context == null && contextText != null) {
                context = trigger(contextSource, contextText);
                contextSource = null;
                contextText = null;
            }
            return context;
        }
    }

    private Salience(Builder builder) {
        this.clock = builder.clock;
        this.halfLife = builder.halfLife;
        this.scorer = builder.scorer;
        this.autoNoteThreshold = builder.autoNoteThreshold;
        this.autoNoteInterval = builder.autoNoteInterval;
        this.autoNoteImportance = builder.autoNoteImportance;
        reset();
    }

    /** A builder that starts from seed 000's defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Scores {@code text} and raises the levels by the score; returns the levels after. */
    public synchronized SalienceLevels observe(SalienceSource source, String text) {
        Ensure.notNull(source, "source");
        if (text == null || text.isBlank()) {
            return levels();
        }
        SalienceLevels score = scorer.score(source, text);
        decayToNow();
        return raise(score == null ? SalienceLevels.NONE : score, source, text);
    }

    /** The score of {@code text} by this salience's scorer ({@link SalienceLevels#NONE} for none); changes nothing. */
    SalienceLevels score(SalienceSource source, String text) {
        SalienceLevels score = scorer.score(source, text);
        return score == null ? SalienceLevels.NONE : score;
    }

    /**
     * Raises the levels by {@code score}, which {@code text} from {@code source} got when it came at {@code time}: as
     * if it had been applied then (a score applied after the levels were read later is decayed by the time between).
     *
     * @return whether any level rose
     */
    synchronized boolean raiseAt(Instant time, SalienceLevels score, SalienceSource source, String text) {
        if (score.equals(SalienceLevels.NONE)) {
            return false;
        }
        SalienceLevels by = score;
        if (updated == null || time.isAfter(updated)) {
            decayTo(time);
        } else if (time.isBefore(updated)) {
            double factor = Math.pow(0.5, (double) Duration.between(time, updated).toMillis() / halfLife.toMillis());
            by = new SalienceLevels(score.dopamine() * factor, score.cortisol() * factor, score.oxytocin() * factor);
        }
        raise(by, source, text);
        return true;
    }

    /**
     * Raises each level by {@code by} (as {@link #observe} does with a score); {@code context} says what raised them
     * and goes into an auto-note.
     */
    public synchronized SalienceLevels raise(SalienceLevels by, String context) {
        Ensure.notNull(by, "by");
        decayToNow();
        return raise(by, null, context == null ? "" : StateLines.oneLine(context));
    }

    /**
     * Raises the levels by {@code by}; what raised them is {@code text} from {@code source}, described lazily, or the
     * description {@code text} itself when {@code source} is null.
     */
    private SalienceLevels raise(SalienceLevels by, SalienceSource source, String text) {
        for (Hormone hormone : Hormone.values()) {
            double raise = by.level(hormone);
            if (raise <= 0) {
                continue;
            }
            Track track = tracks.get(hormone);
            track.level = 1 - (1 - track.level) * (1 - raise);
            if (!track.raisedSinceNote || raise >= track.contextRaise) {
                if (source == null) {
                    track.context(text);
                } else {
                    track.context(source, text);
                }
                track.contextRaise = raise;
            }
            track.raisedSinceNote = true;
        }
        return current();
    }

    /** The levels now, decayed to the clock's time. */
    public synchronized SalienceLevels levels() {
        decayToNow();
        return current();
    }

    /** The Mood line's text for the levels now. */
    public synchronized String mood() {
        return levels().mood();
    }

    /**
     * The auto-notes due now (see the class comment), at most one per hormone; each is reported once. The caller
     * appends them to the notes log ({@link AutoNote#toNote}).
     */
    public synchronized List<AutoNote> autoNotes() {
        decayToNow();
        Instant now = clock.instant();
        List<AutoNote> notes = new ArrayList<>();
        for (Hormone hormone : Hormone.values()) {
            Track track = tracks.get(hormone);
            boolean due = track.lastAutoNote == null || !now.isBefore(track.lastAutoNote.plus(autoNoteInterval));
            if (track.level > autoNoteThreshold && track.raisedSinceNote && due) {
                notes.add(new AutoNote(hormone, track.level, text(hormone, track), autoNoteImportance));
                track.lastAutoNote = now;
                track.raisedSinceNote = false;
                track.context(null);
                track.contextRaise = 0;
            }
        }
        return notes;
    }

    private static String text(Hormone hormone, Track track) {
        String text = "[AUTO] Hormonal event: " + hormone.label() + " spike (" + hormone.event() + "). "
                + String.format(Locale.ROOT, "Level %.2f", track.level);
        String context = track.context();
        return context == null || context.isEmpty() ? text + "." : text + "; trigger: " + context;
    }

    /** The state as JSON: levels, their time, and per hormone the last auto-note and the pending context. */
    public synchronized JsonNode snapshot() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        if (updated != null) {
            root.put("updated", updated.toString());
        }
        ObjectNode hormones = root.putObject("hormones");
        for (Hormone hormone : Hormone.values()) {
            Track track = tracks.get(hormone);
            ObjectNode node = hormones.putObject(hormone.label());
            node.put("level", track.level);
            node.put("raisedSinceNote", track.raisedSinceNote);
            if (track.lastAutoNote != null) {
                node.put("lastAutoNote", track.lastAutoNote.toString());
            }
            if (track.context() != null) {
                node.put("context", track.context());
                node.put("contextRaise", track.contextRaise);
            }
        }
        return root;
    }

    /**
     * Replaces the state with a {@link #snapshot()}. {@code null} or a missing node resets every level to zero; a
     * snapshot that cannot be read does too, with a warning (a lost mood is better than a failed memory).
     */
    public synchronized void restore(JsonNode snapshot) {
        reset();
        if (snapshot == null || snapshot.isMissingNode() || snapshot.isNull()) {
            return;
        }
        try {
            Instant time = snapshot.hasNonNull("updated") ? Instant.parse(snapshot.get("updated").asText()) : null;
            JsonNode hormones = snapshot.path("hormones");
            for (Hormone hormone : Hormone.values()) {
                JsonNode node = hormones.path(hormone.label());
                Track track = tracks.get(hormone);
                double level = node.path("level").asDouble(0);
                track.level = Double.isNaN(level) ? 0 : Math.max(0, Math.min(1, level));
                track.raisedSinceNote = node.path("raisedSinceNote").asBoolean(false);
                track.lastAutoNote = node.hasNonNull("lastAutoNote") ? Instant.parse(node.get("lastAutoNote").asText())
                        : null;
                track.context(node.hasNonNull("context") ? StateLines.clip(node.get("context").asText(), 400) : null);
                track.contextRaise = node.path("contextRaise").asDouble(0);
            }
            updated = time;
        } catch (DateTimeParseException e) {
            log.warn("Salience snapshot unreadable, levels reset to zero: {}", e.getMessage());
            reset();
        }
    }

    private void reset() {
        for (Hormone hormone : Hormone.values()) {
            tracks.put(hormone, new Track());
        }
        updated = null;
    }

    private void decayToNow() {
        decayTo(clock.instant());
    }

    private void decayTo(Instant now) {
        if (updated == null) {
            updated = now;
            return;
        }
        if (!now.isAfter(updated)) {
            return; // a clock that went back does not raise anything
        }
        double halfLives = (double) Duration.between(updated, now).toMillis() / halfLife.toMillis();
        double factor = Math.pow(0.5, halfLives);
        for (Track track : tracks.values()) {
            track.level *= factor;
        }
        updated = now;
    }

    private SalienceLevels current() {
        return new SalienceLevels(clamp(tracks.get(Hormone.DOPAMINE).level), clamp(tracks.get(Hormone.CORTISOL).level),
                clamp(tracks.get(Hormone.OXYTOCIN).level));
    }

    private static double clamp(double level) {
        return Math.max(0, Math.min(1, level));
    }

    /**
     * What an auto-note names as its trigger: the source, and a user's words quoted. A tool's text is never quoted
     * ({@link Provenance}), nor a model's reply, which may repeat what a tool returned: an auto-note is a note, and a
     * dream writes notes into the state.
     */
    private static String trigger(SalienceSource source, String text) {
        if (source.provenance() == Provenance.USER) {
            return source.label() + " \"" + snippet(text) + "\"";
        }
        return ("aeiou".indexOf(source.label().charAt(0)) >= 0 ? "an " : "a ") + source.label();
    }

    /**
     * The start of {@code text} on one line, clipped to {@link #CONTEXT_CHARS}, quotes made apostrophes. Reads only the
     * first characters it needs: this runs for every message that raises a level.
     */
    private static String snippet(String text) {
        StringBuilder line = new StringBuilder(CONTEXT_CHARS + 16);
        boolean space = false;
        for (int i = 0; i < text.length() && line.length() <= CONTEXT_CHARS; i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                space = line.length() > 0;
            } else {
                if (space) {
                    line.append(' ');
                    space = false;
                }
                line.append(c == '"' ? '\'' : c);
            }
        }
        return StateLines.clip(line.toString(), CONTEXT_CHARS);
    }

    /** Builds a {@link Salience}. Not thread-safe. */
    public static final class Builder {

        private Clock clock = Clock.systemUTC();
        private Duration halfLife = Duration.ofHours(2);
        private SalienceScorer scorer = SalienceScorer.lexicon();
        private double autoNoteThreshold = 0.7;
        private Duration autoNoteInterval = Duration.ofMinutes(30);
        private double autoNoteImportance = 0.8;

        private Builder() {
        }

        /** The clock that times raises, decay and auto-notes; default {@link Clock#systemUTC()}. */
        public Builder clock(Clock clock) {
            this.clock = Ensure.notNull(clock, "clock");
            return this;
        }

        /** The time in which a level halves without new raises; default 2 hours. */
        public Builder halfLife(Duration halfLife) {
            Ensure.notNull(halfLife, "halfLife");
            Ensure.that(!halfLife.isNegative() && halfLife.toMillis() > 0, "halfLife must be positive, was " + halfLife);
            this.halfLife = halfLife;
            return this;
        }

        /** Scores messages; default {@link SalienceScorer#lexicon()}. */
        public Builder scorer(SalienceScorer scorer) {
            this.scorer = Ensure.notNull(scorer, "scorer");
            return this;
        }

        /** The level above which a spike is noted; default 0.7 (seed 000). */
        public Builder autoNoteThreshold(double threshold) {
            Ensure.that(threshold >= 0 && threshold < 1, "autoNoteThreshold must be in [0, 1), was " + threshold);
            this.autoNoteThreshold = threshold;
            return this;
        }

        /** The least time between two auto-notes of one hormone; default 30 minutes (seed 000). */
        public Builder autoNoteInterval(Duration interval) {
            Ensure.notNull(interval, "interval");
            Ensure.that(!interval.isNegative(), "autoNoteInterval must not be negative, was " + interval);
            this.autoNoteInterval = interval;
            return this;
        }

        /** The importance of an auto-note; default 0.8 (seed 000). */
        public Builder autoNoteImportance(double importance) {
            Ensure.that(importance >= 0 && importance <= 1, "autoNoteImportance must be between 0 and 1, was " + importance);
            this.autoNoteImportance = importance;
            return this;
        }

        /** A salience with every level at 0. */
        public Salience build() {
            return new Salience(this);
        }
    }
}
