package dev.workingmemory.testing;

/**
 * A text that counts the characters read from it, and stops the reader (a regular expression's matcher) once over its
 * budget: how a test shows a pattern reads a line built to backtrack in linear steps, without timing it.
 */
public final class CountingText implements CharSequence {

    private final String text;
    private final long budget;
    private long steps;

    public CountingText(String text, long budget) {
        this.text = text;
        this.budget = budget;
    }

    /** The characters read so far. */
    public long steps() {
        return steps;
    }

    public long budget() {
        return budget;
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public char charAt(int index) {
        if (++steps > budget) {
            throw new IllegalStateException("over " + budget + " characters read from a text of " + text.length());
        }
        return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return text.substring(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
