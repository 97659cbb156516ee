package dev.workingmemory.store;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryWorkingMemoryStoreTest implements WorkingMemoryStoreContract {

    private WorkingMemoryStore store;

    @BeforeEach
    void createStore() {
        store = new InMemoryWorkingMemoryStore();
    }

    @Override
    public WorkingMemoryStore store() {
        return store;
    }

    /**
     * A document put while another thread deletes the key's last other document is kept: the delete, emptying the
     * key's documents, once dropped their map with the new one just put in (a thread marking itself unpaused while
     * another of the user unmarks, or a dream's state put while a thread unmarks).
     */
    @Test
    void should_keep_a_document_put_while_the_keys_last_other_document_is_deleted() throws Exception {
        List<String> lost = Collections.synchronizedList(new ArrayList<>());

        WorkingMemoryStoreContract.inParallel(2, thread -> {
            for (int i = 0; i < 50_000; i++) {
                String name = "unpaused-" + thread + "-" + i;
                store.putDocument("k", name, "{}");
                if (store.getDocument("k", name).isEmpty()) {
                    lost.add(name);
                }
                store.deleteDocument("k", name);
            }
        });

        assertThat(lost).isEmpty();
    }
}
