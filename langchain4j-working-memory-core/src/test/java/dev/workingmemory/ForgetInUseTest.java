package dev.workingmemory;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.TestEmbeddingModels;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.ForgottenTurns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code forget} while the user goes on talking: nothing said in the turns before it comes back afterwards (in the
 * crystals, a search, the stored messages or {@code messages()}), whether another instance or another thread of the
 * forgetting one keeps serving the user; what is said afterwards is kept as usual.
 */
class ForgetInUseTest {

    private static final String USER = ForgottenTurns.USER;

    @TempDir
    Path dir;

    private final List<AutoCloseable> opened = new ArrayList<>();
    /** One instance for every provider: providers of one JVM on one file store share its crystals. */
    private final EmbeddingModel embeddingModel = TestEmbeddingModels.hashing();

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    enum Stores {
        /** One in-memory store and one crystal store shared by the providers. */
        IN_MEMORY,
        /** A file store instance per provider on one root (their crystals share the root's .crystals). */
        FILE
    }

    /** Providers (application instances) on one store and one long-term memory. */
    private Supplier<WorkingMemoryProvider> instances(Stores stores, WorkingMemoryStore shared) {
        CrystalStore crystals = stores == Stores.FILE ? null
                : opened(EmbeddedCrystalStore.builder().embeddingModel(embeddingModel).build());
        return () -> {
            WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().maxMessages(4);
            if (stores == Stores.FILE) {
                builder.store(new FileWorkingMemoryStore(dir)).embeddingModel(embeddingModel);
            } else {
                builder.store(shared).crystalStore(crystals);
            }
            return opened(builder.build());
        };
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void should_not_bring_back_earlier_turns_when_another_instance_keeps_serving_the_user(Stores stores) {
        Supplier<WorkingMemoryProvider> instance = instances(stores, new InMemoryWorkingMemoryStore());
        WorkingMemoryProvider a = instance.get();
        WorkingMemoryProvider b = instance.get();
        ChatMemory onB = b.get(USER); // what AiServices holds for the user
        ForgottenTurns.before(onB);
        onB.add(UserMessage.from("What is the weather like today?")); // B's turn runs while A forgets

        a.forget(USER);
        onB.add(AiMessage.from("Sunny, and warm."));
        ForgottenTurns.after(onB);

        ForgottenTurns.assertNoneBack(a, b, instance.get());
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void should_not_bring_back_earlier_turns_when_another_thread_uses_the_memory_while_it_is_forgotten(Stores stores) {
        // Another thread uses the memory the moment forget starts deleting it from the store: after forget closed
        // the cached memory, before the delete. It must not load what is being deleted.
        AtomicBoolean armed = new AtomicBoolean();
        List<Thread> users = new ArrayList<>();
        WorkingMemoryStore target = stores == Stores.FILE ? new FileWorkingMemoryStore(dir)
                : new InMemoryWorkingMemoryStore();
        WorkingMemoryStore store = (WorkingMemoryStore) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {WorkingMemoryStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("delete") && armed.compareAndSet(true, false)) {
                        Thread user = new Thread(() -> forgetting.get(USER).add(UserMessage.from("Still there?")));
                        users.add(user);
                        user.start();
                        user.join(1_000); // done at once, unless forget keeps it from loading until it returns
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        Supplier<WorkingMemoryProvider> instance = instances(Stores.IN_MEMORY, store);
        forgetting = instance.get();
        ChatMemory memory = forgetting.get(USER);
        ForgottenTurns.before(memory);

        armed.set(true);
        forgetting.forget(USER);
        assertThat(users).hasSize(1);
        join(users.get(0));
        memory.add(AiMessage.from("Yes, still here."));
        ForgottenTurns.after(memory);

        ForgottenTurns.assertNoneBack(forgetting, instance.get());
    }

    /** The provider whose store's delete starts another thread's use of the memory. */
    private volatile WorkingMemoryProvider forgetting;

    @ParameterizedTest
    @EnumSource(Stores.class)
    void should_finish_a_forget_that_stopped_halfway_before_loading_the_user(Stores stores) {
        WorkingMemoryStore shared = stores == Stores.FILE ? new FileWorkingMemoryStore(dir)
                : new InMemoryWorkingMemoryStore();
        Supplier<WorkingMemoryProvider> instance = instances(stores, shared);
        WorkingMemoryProvider crashed = instance.get();
        ForgottenTurns.before(crashed.get(USER));
        crashed.flush();
        // an instance that died after it marked the user, before it deleted anything
        crashed.store().putDocument(crashed.keyOf(USER).resourceStoreKey(), WorkingMemoryProvider.FORGETTING,
                "2026-03-12T14:30:00Z");

        WorkingMemoryProvider next = instance.get();
        ChatMemory memory = next.get(USER);
        assertThat(memory.messages()).isEmpty();
        ForgottenTurns.after(memory);

        ForgottenTurns.assertNoneBack(next, instance.get());
        assertThat(next.store().getDocument(next.keyOf(USER).resourceStoreKey(), WorkingMemoryProvider.FORGETTING))
                .isEmpty();
    }

    private static void join(Thread thread) {
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(thread.isAlive()).as("a use of the memory after forget returned").isFalse();
    }
}
