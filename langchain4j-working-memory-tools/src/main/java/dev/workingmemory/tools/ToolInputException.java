package dev.workingmemory.tools;

/**
 * A tool's input was wrong. Never leaves a tool: {@link ToolRunner} turns it into the text the model reads,
 * {@code "Error: <problem> How to fix: <fix>"}.
 *
 * <p>Immutable and thread-safe.
 */
final class ToolInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String fix;

    /**
     * @param problem what was wrong, as a sentence
     * @param fix     what the model should do instead, as a sentence
     */
    ToolInputException(String problem, String fix) {
        super(problem, null, false, false);
        this.fix = fix;
    }

    String problem() {
        return getMessage();
    }

    String fix() {
        return fix;
    }
}
