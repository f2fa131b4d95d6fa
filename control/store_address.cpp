// A store's address (store_address.h).
#include "store_address.h"

#include "session_store.h"

namespace scalebench {

StoreAddress storeAddress(const SessionStore& store) {
    return {store.file(), store.storeId()};
}

} // namespace scalebench
