package dev.workingmemory.testing;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A conversation of numbered turns through {@code AiServices} with a scripted model, for the tests of a conversation
 * kept across restarts and instances: turn {@code n} says {@code "Turn n: …"}; every third turn the model first calls
 * the tool {@code checkLocker}, then answers {@code "Answer n: …"}. The model answers from the request alone, so any
 * number of providers (and JVMs) can take turns of one conversation. Thread-safe.
 */
public final class NumberedTurns {

    private static final Pattern TURN = Pattern.compile("Turn (\\d+):");
    /** In a user message ("Turn 3:") or the tool's result ("of turn 3"). */
    private static final Pattern ANY_TURN = Pattern.compile("[Tt]urn (\\d+)");
    private static final Pattern USER_LINE = Pattern.compile("user: Turn (\\d+):");

    private NumberedTurns() {
    }

    /** What the application declares. */
    public interface Assistant {
        String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    /** The tool the model calls on every third turn. */
    public static final class LockerTools {
        @Tool("Checks a locker")
        public String checkLocker(@P("turn") int turn) {
            return "{\"locker\":{\"id\":\"locker-" + turn + "\",\"name\":\"Locker of turn " + turn + "\"}}";
        }
    }

    /** An assistant on {@code provider} with the scripted model and the locker tool. */
    public static Assistant assistant(WorkingMemoryProvider provider) {
        return AiServices.builder(Assistant.class)
                .chatModel(ScriptedChatModel.answering(request -> answer(request.messages())))
                .chatMemoryProvider(provider)
                .tools(new LockerTools())
                .build();
    }

    /** What the user says in turn {@code n}. */
    public static String text(int n) {
        return "Turn " + n + ": my locker code is " + (7000 + n) + "-QUARTZ.";
    }

    /** Takes turn {@code n} of {@code user}'s conversation and returns the answer. */
    public static String take(Assistant assistant, String user, int n) {
        return assistant.chat(user, text(n));
    }

    private static AiMessage answer(List<ChatMessage> messages) {
        ChatMessage last = messages.get(messages.size() - 1);
        if (last instanceof ToolExecutionResultMessage result) {
            return AiMessage.from("Answer " + turnOf(result.text()) + ": the locker is checked.");
        }
        int n = turnOf(((UserMessage) last).singleText());
        if (n % 3 == 0) {
            return AiMessage.from(ScriptedChatModel.toolCall("checkLocker", "{\"turn\":" + n + "}"));
        }
        return AiMessage.from("Answer " + n + ": noted.");
    }

    private static int turnOf(String text) {
        Matcher number = ANY_TURN.matcher(text);
        if (!number.find()) {
            throw new IllegalStateException("No turn number in " + text);
        }
        return Integer.parseInt(number.group(1));
    }

    /** The numbers of the turns whose user message is among {@code messages}, in their order. */
    public static List<Integer> turnsIn(List<ChatMessage> messages) {
        List<Integer> turns = new ArrayList<>();
        for (ChatMessage message : messages) {
            if (message instanceof UserMessage user) {
                Matcher turn = TURN.matcher(user.singleText());
                if (turn.find()) {
                    turns.add(Integer.parseInt(turn.group(1)));
                }
            }
        }
        return turns;
    }

    /**
     * The numbers of the turns whose user message is in a past-turn crystal of {@code scope}, once per occurrence, in
     * the order of the crystals' times (a turn's number breaks a tie of two crystals of one millisecond).
     */
    public static List<Integer> pastTurns(CrystalStore crystals, String scope) {
        List<Crystal> turns = new ArrayList<>(crystals.recent(scope, Instant.EPOCH, 1_000).stream()
                .filter(crystal -> crystal.kind() == CrystalKind.TURN).toList());
        List<int[]> found = new ArrayList<>(); // {time order, turn}
        turns.sort(Comparator.comparing(Crystal::time));
        for (int i = 0; i < turns.size(); i++) {
            Matcher user = USER_LINE.matcher(turns.get(i).text());
            while (user.find()) {
                found.add(new int[] {i, Integer.parseInt(user.group(1))});
            }
        }
        found.sort(Comparator.<int[]>comparingLong(f -> turns.get(f[0]).time().toEpochMilli()).thenComparingInt(f -> f[1]));
        return found.stream().map(f -> f[1]).toList();
    }

    /**
     * Asserts that turns {@code 0} to {@code turns - 1} of {@code user}'s conversation are each in the window of
     * {@code reader} or in its past turns, once, in order: the past turns first, then the window (whose turns are
     * past turns too when an instance closed with them in its window: a pause).
     */
    public static void assertEveryTurnOnceInOrder(WorkingMemoryProvider reader, String user, int turns) {
        List<Integer> window = turnsIn(reader.get(user).messages());
        List<Integer> past = pastTurns(reader.crystalStore().orElseThrow(), reader.keyOf(user).crystalScope());
        assertThat(window).as("the window").isNotEmpty();
        List<Integer> all = new ArrayList<>(past);
        // an instance that closed made past turns of the window too (a pause): those are the window's, once
        window.stream().filter(turn -> !past.contains(turn)).forEach(all::add);
        assertThat(all).as("past turns %s, then the window %s", past, window)
                .containsExactlyElementsOf(IntStream.range(0, turns).boxed().toList());
    }

    /**
     * Takes turns {@code 0} to {@code turns - 1} of {@code user}'s conversation about: the even ones through
     * {@code onA}, the odd ones in {@code b}, a {@link ConversationProcess}, whose provider it closes at the end.
     */
    public static void takeTurnsAbout(Assistant onA, ChildJvm b, String user, int turns, Duration timeout)
            throws Exception {
        b.awaitLine("ready"::equals, timeout);
        for (int n = 0; n < turns; n++) {
            if (n % 2 == 0) {
                take(onA, user, n);
            } else {
                b.send("turn " + n);
                b.awaitLine(("took " + n)::equals, timeout);
            }
        }
        b.send("close");
        b.awaitLine("closed"::equals, timeout);
        assertThat(b.awaitExit(timeout)).isZero();
    }
}
