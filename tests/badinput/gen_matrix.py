#!/usr/bin/env python3
"""Generate the bad-input matrix (tests/badinput/matrix_table.h) from the
public headers.

Every prototype of include/*.h is an entry point.  Each parameter gets a
kind from RULES (the first rule matching function, parameter name and type
wins); each kind has the classes of bad value that apply to it (KINDS).  The
cases are then:

  - per entry point: the valid call (expected to succeed), the call before
    ARMCI_Init and the call after ARMCI_Finalize;
  - per entry point x parameter x class of that parameter's kind: the valid
    call with that one argument replaced by the bad value;
  - EXTRA: hand-listed combinations (a NULL buffer with a zero size, ...).

Each case expects a clean error naming the call (the default), or is
deliberately accepted (ACCEPT, with the reason), or is the documented abort
of an error routine (ARMCI_Error ...).  The driver (matrix.c) supplies the
valid and bad values of every kind and runs the cases in one process.

A parameter or entry point that no rule covers stops the generator: a new
argument in the headers cannot go untested.

usage: gen_matrix.py [--check] [--srcdir DIR] [-o FILE]
  --check: compare with the committed table instead of writing it (exit 1
           when it is out of date).
"""
import argparse
import os
import re
import sys

HEADERS = ["armci.h", "armcix.h", "message.h", "iterator.h", "armcip.h", "mp3.h"]

# ---------------------------------------------------------------------------
# Kinds: the classes of bad value that apply to each kind of argument.
# Classes are implemented by the driver (mx_bad_* in matrix.c).
KINDS = {
    # local buffers the caller owns (only NULL is detectable; their extent is not)
    "LBUF": ["null"],
    # an address on the target process (inside an ARMCI allocation there)
    "RADDR": ["null", "outside", "freed", "pastend"],
    # byte counts of transfers (the remote extent is checked)
    "BYTES": ["neg", "min", "huge"],
    # byte count of a purely local copy (its extent is the caller's)
    "LBYTES": ["neg", "min"],
    # absolute process ranks
    "PROC": ["neg", "nproc", "huge", "min"],
    "SCALE": ["null"],
    "ACCTYPE": ["neg", "range", "huge"],
    # the flag of Put_flag: an int on the target
    "FLAG": ["null", "outside", "freed"],
    # any value is legal
    "VALUE": [],
    # nonblocking handle of an Nb operation (NULL: implicit handle)
    "HDL_NB": ["null", "garbage"],
    # handle waited on
    "HDL_WAIT": ["null", "garbage"],
    # handle initialized or marked
    "HDL_MARK": ["null", "garbage"],
    # stride arrays: of the local side, of the remote side
    "LSTRIDE": ["null"],
    "RSTRIDE": ["null", "neg_elem", "huge_elem"],
    "COUNTS": ["null", "neg0", "negn", "huge0", "hugen"],
    # counts of a purely local strided copy (the extent is the caller's)
    "LCOUNTS": ["null", "neg0", "negn"],
    "LEVELS": ["neg", "min", "range", "huge"],
    # I/O vectors: W = remote destination (PutV, AccV), R = remote source (GetV)
    "GIOV_W": ["null", "src_arr_null", "dst_arr_null", "loc_elem_null", "rem_elem_null",
               "rem_elem_outside", "rem_elem_freed", "bytes_neg", "bytes_huge",
               "len_neg"],
    "GIOV_R": ["null", "src_arr_null", "dst_arr_null", "loc_elem_null", "rem_elem_null",
               "rem_elem_outside", "rem_elem_freed", "bytes_neg", "bytes_huge",
               "len_neg"],
    "IOVLEN": ["neg", "min"],
    "RMWOP": ["neg", "range", "huge"],
    # the remote location of Rmw
    "PREM": ["null", "outside", "freed"],
    "MTXCOUNT": ["neg", "min", "huge"],
    "MUTEX": ["neg", "count", "huge"],
    "MTXHDL": ["null", "garbage", "destroyed"],
    # a group the caller belongs to
    "GROUP": ["null", "freed", "zeroed", "garbage", "nonmember"],
    # a group that may be one the caller is not in (queries)
    "GROUPQ": ["null", "freed", "zeroed", "garbage"],
    "GROUP_OUT": ["null"],
    "PIDS": ["null", "elem_neg", "elem_range", "elem_dup"],
    "GRPSIZE": ["neg", "range", "huge"],
    "GRANK": ["neg", "range", "huge"],
    "COLOR": ["neg"],
    # an output pointer the call writes through
    "OUT": ["null"],
    # an optional output pointer (NULL: not wanted)
    "OPTOUT": ["null"],
    "DOMAIN": ["neg", "range"],
    # domain ids where a negative id names the caller's own domain
    "DOMID_NEG_MINE": ["neg", "nproc", "huge", "min"],
    "LOCPROC": ["neg", "range"],
    "SINFO": ["null", "garbage"],
    "SINFO_OUT": ["null"],
    "ANYPTR": ["null"],
    "ISTRIDE": ["null"],
    "ISEGS": ["null", "neg0", "negn"],
    "ILEVELS": ["neg", "range", "huge"],
    "ARGC": ["null"],
    "ARGV": ["null"],
    "THREADLEVEL": ["neg", "range"],
    "COMM": ["null"],
    "ERRMSG": ["null"],
    "ASYNCMODE": ["neg", "range"],
    # pointer inside this process's slice of an ARMCI allocation
    "OWNPTR": ["null", "outside", "freed"],
    # pointer to free (NULL allowed on any process of a collective free)
    "FREEPTR": ["null", "outside", "freed"],
    "FREELOCAL": ["null", "outside", "freed"],
    "DEVICE": ["null"],
    "PTRARR": ["null"],
    "ALLOCSIZE": ["neg", "min", "huge"],
    "TAG": ["neg"],
    "MSGBUF": ["null"],
    "MSGLEN": ["neg", "min"],
    "SCOPE": ["neg", "range"],
    "GOPBUF": ["null"],
    "GOPN": ["neg", "min"],
    "OPSTR": ["null", "unknown"],
    "SELOP": ["null", "unknown"],
    "MSGTYPE": ["neg", "range"],
    "SELN": ["neg", "small"],
}

# ---------------------------------------------------------------------------
# Rules: (function regex, parameter-name regex, type regex, kind).
# Function regexes match the name without a leading P of a PARMCI_ twin.
RULES = [
    # -- init
    (r"ARMCI_Init_args|armci_msg_init", r"argc", r".", "ARGC"),
    (r"ARMCI_Init_args|armci_msg_init", r"argv", r".", "ARGV"),
    (r"ARMCI_Init_thread", r"armci_requested", r".", "THREADLEVEL"),
    (r"ARMCI_Init", r"comm", r"MPI_Comm$", "COMM"),
    (r"ARMCI_Error|armci_die2?$", r"msg", r".", "ERRMSG"),
    (r"ARMCI_Error|armci_die2?$|armci_msg_abort", r"code[12]?", r".", "VALUE"),
    # -- memory
    (r"ARMCI_Malloc(_group)?(_memdev)?$", r"base_ptrs|ptr_arr", r".", "PTRARR"),
    (r"ARMCI_Malloc", r"size|bytes", r".", "ALLOCSIZE"),
    (r"ARMCI_Malloc", r"device", r".", "DEVICE"),
    (r"ARMCI_Free_local", r"ptr", r".", "FREELOCAL"),
    (r"ARMCI_Free", r"ptr", r".", "FREEPTR"),
    (r"ARMCI_Set_shm_limit", r".*", r".", "VALUE"),
    (r"ARMCI_Uses_shm_grp|ARMCI_Group_rank|ARMCI_Group_size|armci_group_comm|ARMCI_Absolute_id",
     r"group", r".", "GROUPQ"),
    (r"ARMCI_Access_", r"ptr", r".", "OWNPTR"),
    # -- contiguous: the remote side is dst of puts and accumulates, src of gets
    (r"ARMCI_Copy", r"src|dst", r".", "LBUF"),
    (r"ARMCI_Copy", r"size", r".", "LBYTES"),
    (r"ARMCI_(Nb)?Get(Value\w+)?$", r"src", r"\*", "RADDR"),
    (r"ARMCI_(Nb)?Get$", r"dst", r".", "LBUF"),
    (r"ARMCI_(Nb)?(Put|Acc)(_flag)?$|ARMCI_(Nb)?PutValue", r"dst", r".", "RADDR"),
    (r"ARMCI_(Nb)?(Put|Acc)(_flag)?$", r"src", r".", "LBUF"),
    (r"ARMCI_(Nb)?PutValue", r"src", r".", "VALUE"),
    (r"ARMCI_", r"^(size|bytes)$", r"^int$", "BYTES"),
    (r"ARMCI_(Nb)?Acc", r"datatype", r".", "ACCTYPE"),
    (r"ARMCI_", r"scale", r".", "SCALE"),
    (r"ARMCI_Put(S)?_flag", r"flag", r".", "FLAG"),
    (r"ARMCI_Put(S)?_flag", r"value", r".", "VALUE"),
    # -- strided
    (r"ARMCI_(Nb)?GetS$", r"src_ptr", r".", "RADDR"),
    (r"ARMCI_(Nb)?GetS$", r"dst_ptr", r".", "LBUF"),
    (r"ARMCI_(Nb)?GetS$", r"src_stride_ar", r".", "RSTRIDE"),
    (r"ARMCI_(Nb)?GetS$", r"dst_stride_ar", r".", "LSTRIDE"),
    (r"ARMCI_(Nb)?(Put|Acc)S", r"src_ptr", r".", "LBUF"),
    (r"ARMCI_(Nb)?(Put|Acc)S", r"dst_ptr", r".", "RADDR"),
    (r"ARMCI_(Nb)?(Put|Acc)S", r"src_stride_ar", r".", "LSTRIDE"),
    (r"ARMCI_(Nb)?(Put|Acc)S", r"dst_stride_ar", r".", "RSTRIDE"),
    (r"ARMCI_", r"^count$", r"\*", "COUNTS"),
    (r"ARMCI_|armci_(write|read)_strided", r"stride_levels", r".", "LEVELS"),
    (r"armci_(write|read)_strided", r"ptr|buf", r".", "LBUF"),
    (r"armci_(write|read)_strided", r"stride_arr", r".", "LSTRIDE"),
    (r"armci_(write|read)_strided", r"count", r".", "LCOUNTS"),
    # -- vectors
    (r"ARMCI_(Nb)?(Put|Acc)V", r"iov", r".", "GIOV_W"),
    (r"ARMCI_(Nb)?GetV", r"iov", r".", "GIOV_R"),
    (r"ARMCI_", r"iov_len", r".", "IOVLEN"),
    # -- handles
    (r"ARMCI_Nb", r"hdl|handle", r".", "HDL_NB"),
    (r"ARMCI_(Wait|Test)$", r"hdl", r".", "HDL_WAIT"),
    (r"ARMCI_(INIT|SET_AGGREGATE|UNSET_AGGREGATE)_HANDLE", r".*", r".", "HDL_MARK"),
    # -- atomics and mutexes
    (r"ARMCI_Rmw", r"^op$", r".", "RMWOP"),
    (r"ARMCI_Rmw", r"ploc", r".", "LBUF"),
    (r"ARMCI_Rmw", r"prem", r".", "PREM"),
    (r"ARMCI_Rmw", r"value", r".", "VALUE"),
    (r"ARMCI_Create_mutexes|ARMCIX_Create_mutexes_hdl", r"count", r".", "MTXCOUNT"),
    (r"ARMCIX?_(Lock|Unlock|Trylock)", r"mutex", r".", "MUTEX"),
    (r"ARMCIX_", r"^hdl$", r"armcix_mutex_hdl_t", "MTXHDL"),
    # -- groups
    (r"ARMCI_Group_create", r"grp_size", r".", "GRPSIZE"),
    (r"ARMCI_Group_create", r"pid_list", r".", "PIDS"),
    (r"ARMCI_Group_", r"group_out", r".", "GROUP_OUT"),
    (r"ARMCIX_Group_", r"new_group", r".", "GROUP_OUT"),
    (r"ARMCI_Group_rank|ARMCI_Group_size", r"rank|size", r"\*", "OUT"),
    (r"ARMCI_Absolute_id", r"group_rank", r".", "GRANK"),
    (r"ARMCIX_Group_split", r"color", r".", "COLOR"),
    (r"ARMCIX_Group_split", r"key", r".", "VALUE"),
    (r".", r"^(group|pgroup|parent|group_parent)$", r"ARMCI_Group", "GROUP"),
    # -- locality
    (r"armci_domain_", r"domain", r".", "DOMAIN"),
    (r"armci_domain_(nprocs|glob_proc_id)", r"^id$", r".", "DOMID_NEG_MINE"),
    (r"armci_domain_", r"glob_proc_id|proc", r".", "PROC"),
    (r"armci_domain_glob_proc_id", r"loc_proc_id", r".", "LOCPROC"),
    # -- notifications
    (r"armci_notify_wait", r"pval", r".", "OPTOUT"),
    # -- message layer
    (r"armci_msg_", r"tag", r".", "TAG"),
    (r"armci_msg_(snd|rcv|rcvany|bcast|brdcst)$|armci_msg_(group_)?bcast_scope", r"^(buffer|buf)$",
     r".", "MSGBUF"),
    (r"armci_msg_", r"^(len|buflen)$", r".", "MSGLEN"),
    (r"armci_msg_", r"msglen", r".", "OPTOUT"),
    (r"armci_msg_", r"^(to|from|root)$", r".", "PROC"),
    (r"armci_msg_", r"scope", r".", "SCOPE"),
    (r"armci_msg_bintree", r"Root|Up|Left|Right", r".", "OUT"),
    (r"armci_msg_sel", r"^x$", r".", "GOPBUF"),
    (r"armci_msg_sel", r"^n$", r".", "SELN"),
    (r"armci_msg_sel", r"^op$", r".", "SELOP"),
    (r"armci_msg_sel", r"contribute", r".", "VALUE"),
    (r"armci_msg_", r"^x$", r".", "GOPBUF"),
    (r"armci_msg_", r"^n$", r".", "GOPN"),
    (r"armci_msg_", r"^op$", r".", "OPSTR"),
    (r"armci_msg_", r"^type$", r".", "MSGTYPE"),
    # -- iterator
    (r"armci_stride_info_init", r"sinfo", r".", "SINFO_OUT"),
    (r"armci_stride_info_", r"sinfo", r".", "SINFO"),
    (r"armci_stride_info_init", r"base_ptr", r".", "ANYPTR"),
    (r"armci_stride_info_init", r"stride_levels", r".", "ILEVELS"),
    (r"armci_stride_info_init", r"stride_arr", r".", "ISTRIDE"),
    (r"armci_stride_info_init", r"seg_count", r".", "ISEGS"),
    # -- extensions
    (r"ARMCIX_Get_world_comm", r"comm", r".", "OUT"),
    (r"ARMCIX_(Set_async_hint|Async_phase)", r"mode", r".", "ASYNCMODE"),
    # -- ranks everywhere else
    (r".", r"^(proc|target)$", r".", "PROC"),
]

# ---------------------------------------------------------------------------
# Entry-point properties.  FLAGS: collective (every process of the launch
# makes the call), fixture (driver set-up/clean-up around the call, by
# name).  Functions match without the P of a PARMCI_ twin.
COLLECTIVE = r"""ARMCI_Init(_args|_thread|_thread_comm|_mpi_comm)?|ARMCI_Finalize|ARMCI_Malloc(_group)?(_memdev)?|ARMCI_Free(_group)?(_memdev)?
 |ARMCI_Group_create(_child)?|ARMCI_Group_free|ARMCIX_Group_(split|dup)|ARMCI_Create_mutexes
 |ARMCI_Destroy_mutexes|ARMCIX_Create_mutexes_hdl|ARMCIX_Destroy_mutexes_hdl|ARMCI_Barrier
 |armci_msg_barrier|armci_msg_group_barrier|armci_msg_(group_)?bcast\w*|armci_msg_brdcst
 |armci_msg_(group_)?\w*gop\w*|armci_msg_sel\w*|armci_msg_reduce\w*|ARMCIX_Async_phase"""

# Set-up and clean-up the driver runs around each case of a function
# (matrix.c, fixture_pre/fixture_post).
FIXTURES = [
    (r"ARMCI_Init(_args|_thread|_thread_comm|_mpi_comm)?", "INIT"),  # nested: finalize after
    (r"ARMCI_Malloc(_memdev)?$", "MALLOC"),
    (r"ARMCI_Malloc_group(_memdev)?$", "MALLOC_GROUP"),
    (r"ARMCI_Free(_memdev)?$", "FREE"),
    (r"ARMCI_Free_group$", "FREE_GROUP"),
    (r"ARMCI_Malloc_local$", "MALLOC_LOCAL"),
    (r"ARMCI_Free_local$", "FREE_LOCAL"),
    (r"ARMCI_Create_mutexes$", "CREATE_MUTEXES"),
    (r"ARMCI_Destroy_mutexes$", "DESTROY_MUTEXES"),
    (r"ARMCI_Lock$", "LOCK"),
    (r"ARMCI_Unlock$", "UNLOCK"),
    (r"ARMCIX_Create_mutexes_hdl$", "CREATE_MUTEXES_HDL"),
    (r"ARMCIX_Destroy_mutexes_hdl$", "DESTROY_MUTEXES_HDL"),
    (r"ARMCIX_(Lock|Trylock)_hdl$", "LOCK_HDL"),
    (r"ARMCIX_Unlock_hdl$", "UNLOCK_HDL"),
    (r"ARMCI_Group_create(_child)?$|ARMCIX_Group_(split|dup)$", "GROUP_NEW"),
    (r"ARMCI_Group_free$", "GROUP_FREE"),
    (r"ARMCI_Group_set_default$", "SET_DEFAULT"),
    (r"armci_msg_snd$", "MSG_SND"),
    (r"armci_msg_rcv(any)?$", "MSG_RCV"),
    (r"armci_notify$", "NOTIFY"),
    (r"armci_notify_wait$", "NOTIFY_WAIT"),
]

# Entry points not run in-process at all, with the reason.
EXCLUDED = {
    "armci_msg_finalize": "ends MPI (the driver's own MPI_Finalize does it); it has no arguments",
}

# Phase expectations that differ from "ARMCI is not initialized" before
# ARMCI_Init and after ARMCI_Finalize.  Value: ("accepted", why) or
# ("user_abort", why) or ("skip", why).
NOINIT = {
    "ARMCI_Init": ("skip", "starts the library (the run's own ARMCI_Init)"),
    "ARMCI_Init_args": ("skip", "starts the library (the run's own ARMCI_Init)"),
    "ARMCI_Init_thread": ("skip", "starts the library (the run's own ARMCI_Init)"),
    "ARMCI_Init_thread_comm": ("skip", "starts the library (the run's own ARMCI_Init)"),
    "ARMCI_Init_mpi_comm": ("skip", "starts the library (the run's own ARMCI_Init)"),
    "ARMCI_Initialized": ("accepted", "the query of the state itself"),
    "ARMCI_Finalize": ("accepted", "finalize without init is a no-op (reference count; "
                       "armci_msg_finalize relies on it)"),
    "ARMCI_Cleanup": ("accepted", "does nothing (classic ARMCI compatibility)"),
    "ARMCI_Error": ("user_abort", "aborts the job with the user's message by design"),
    "armci_die": ("user_abort", "aborts the job with the user's message by design"),
    "armci_die2": ("user_abort", "aborts the job with the user's message by design"),
    "armci_msg_abort": ("user_abort", "aborts the job by design"),
    "ARMCI_Set_shm_limit": ("accepted", "classic ARMCI calls it before ARMCI_Init; recorded only"),
    "ARMCI_Uses_shm": ("accepted", "a constant answer (no shared-memory segments of ARMCI's own)"),
    "ARMCI_Uses_shm_grp": ("accepted", "a constant answer; the group is not read"),
    "ARMCI_Copy": ("accepted", "a local memmove, no library state"),
    "armci_write_strided": ("accepted", "local pack, no library state"),
    "armci_read_strided": ("accepted", "local unpack, no library state"),
    "ARMCI_INIT_HANDLE": ("accepted", "resets the caller's handle, no library state"),
    "ARMCI_SET_AGGREGATE_HANDLE": ("accepted", "no-op by design (every handle aggregates)"),
    "ARMCI_UNSET_AGGREGATE_HANDLE": ("accepted", "no-op by design (every handle aggregates)"),
    "ARMCIX_Set_async_hint": ("accepted", "a hint that outlives init (docs/progress.md)"),
    "ARMCIX_Progress": ("accepted", "pokes MPI only while initialized; a no-op otherwise"),
    "armci_timer": ("accepted", "MPI_Wtime, no library state"),
    "armci_msg_init": ("accepted", "starts MPI if needed: meant to be called before ARMCI_Init"),
}
for _f in ["init", "destroy", "size", "pos", "has_more", "next", "seg_ptr", "seg_off",
           "seg_size"]:
    NOINIT["armci_stride_info_" + _f] = ("accepted", "the iterator is pure C, usable before "
                                         "ARMCI_Init (iterator.h)")

# Valid-call expectation other than "accepted" (default), or skip.
BASELINE = {
    "ARMCI_Finalize": ("skip", "would end the run's library; covered by the phases"),
    "ARMCI_Error": ("user_abort", "aborts by design"),
    "armci_die": ("user_abort", "aborts by design"),
    "armci_die2": ("user_abort", "aborts by design"),
    "armci_msg_abort": ("user_abort", "aborts by design"),
}

# Deliberately accepted bad values: (function regex, parameter, class) -> why.
# The function regex matches without the P of a PARMCI_ twin.
ACCEPT = [
    (r"ARMCI_Nb\w+", r"hdl|handle", "null", "NULL selects the implicit handle "
     "(ARMCI_WaitProc/WaitAll complete it)"),
    (r"ARMCI_Nb\w+", r"hdl|handle", "garbage", "an unknown handle starts a new set: handles "
     "carry (slot, generation) only and are never dereferenced (gmr_cset.c)"),
    (r"ARMCI_NbPutValue\w+", r"hdl", "null", "blocking; the handle is not used"),
    (r"ARMCI_(Wait|Test)$", r"hdl", "garbage", "a stale or unknown handle finds no set and "
     "completes at once (gmr_cset.c)"),
    (r"ARMCI_INIT_HANDLE", r".*", "null", "ignored, like classic ARMCI"),
    (r"ARMCI_INIT_HANDLE", r".*", "garbage", "resets whatever the handle held"),
    (r"ARMCI_(UN)?SET_AGGREGATE_HANDLE", r".*", "null|garbage", "no-op by design "
     "(every handle aggregates)"),
    (r"ARMCI_Free(_group)?(_memdev)?$", r"ptr", "null", "a collective free lets any process "
     "pass NULL (a zero-size slice)"),
    (r"ARMCI_Free_local", r"ptr", "null", "free(NULL) semantics"),
    (r"ARMCI_Malloc\w*", r"device", "null", "memory devices are not distinguished; the "
     "name is not read"),
    (r"ARMCI_Init_args|armci_msg_init", r"argc|argv", "null", "MPI_Init(NULL, NULL) is legal "
     "(and MPI runs already)"),
    (r"armci_stride_info_init", r"base_ptr", "null", "the iterator only does address "
     "arithmetic on it"),
    (r"armci_domain_(nprocs|glob_proc_id)", r"^id$", "neg|min", "a negative domain id is the "
     "caller's own domain (classic ARMCI; GA passes -1)"),
    (r"armci_notify_wait", r"pval", "null", "optional output"),
    (r"armci_stride_info_destroy", r"sinfo", "null|garbage", "nothing to release (kept for "
     "source compatibility); the iterator is not read"),
    (r"armci_msg_rcv(any)?", r"msglen", "null", "optional output"),
    (r"ARMCI_Error|armci_die2?$", r"msg", "null", "USER_ABORT"),
    (r"ARMCI_Group_rank|ARMCI_Group_size|armci_group_comm|ARMCI_Absolute_id|ARMCI_Uses_shm_grp",
     r"group", "nonmember", "a group the caller is not in answers -1 / 0 / MPI_COMM_NULL"),
    (r"ARMCI_Group_free", r"group", "freed", "any copy of a group may be freed; the "
     "copies freed after the first are no-ops (common_group.c)"),
    (r"ARMCI_Group_free", r"group", "nonmember", "a non-member's group has nothing to free"),
    (r"ARMCI_Uses_shm_grp", r"group", "null|freed|zeroed|garbage", "a constant answer; the "
     "group is not read"),
]

# Classes that need a second process (the class's value refers to one).
NEEDS_TWO = {("PIDS", "elem_dup")}

# Hand-listed cases: (function, [(parameter, class), ...], expectation, why).
# Classes prefixed "zero" set a count to 0.
EXTRA = [
    ("ARMCI_Put", [("src", "null"), ("size", "zero")], "accepted", "nothing to move"),
    ("ARMCI_Put", [("dst", "null"), ("size", "zero")], "accepted", "nothing to move"),
    ("ARMCI_Get", [("src", "null"), ("size", "zero")], "accepted", "nothing to move"),
    ("ARMCI_Get", [("dst", "null"), ("size", "zero")], "accepted", "nothing to move"),
    ("ARMCI_Acc", [("src", "null"), ("bytes", "zero")], "accepted", "nothing to move"),
    ("ARMCI_NbPut", [("dst", "outside"), ("bytes", "zero")], "accepted", "nothing to move"),
    ("ARMCI_Copy", [("src", "null"), ("size", "zero")], "accepted", "nothing to copy"),
    ("ARMCI_PutS", [("src_ptr", "null"), ("count", "zero0")], "accepted", "any zero count: "
     "nothing to move"),
    ("ARMCI_GetS", [("src_ptr", "null"), ("count", "zeron")], "accepted", "any zero count: "
     "nothing to move"),
    ("ARMCI_PutS", [("src_stride_ar", "null"), ("stride_levels", "zero")], "accepted",
     "stride arrays are not read at level 0"),
    ("ARMCI_PutV", [("iov", "null"), ("iov_len", "zero")], "accepted", "no descriptors"),
    ("ARMCI_GetV", [("iov", "zero_bytes_null_arrs")], "accepted", "a 0-byte descriptor's "
     "arrays are not read"),
    ("ARMCI_Malloc", [("size", "zero")], "accepted", "a zero-size slice (NULL pointer)"),
    ("ARMCI_Group_create", [("grp_size", "zero"), ("pid_list", "null")], "accepted",
     "an empty group (every process a non-member)"),
    ("armci_msg_snd", [("buffer", "null"), ("len", "zero")], "accepted", "empty message"),
    ("armci_msg_igop", [("x", "null"), ("n", "zero")], "accepted", "no elements"),
    ("ARMCIX_Group_split", [("color", "undefined")], "accepted", "MPI_UNDEFINED opts out "
     "(a non-member's group)"),
    ("ARMCI_Create_mutexes", [("count", "zero")], "error", "every process may host 0 "
     "mutexes, but not all of them"),
]

# Default reason keywords per class: the reason must name the problem.
REASON = {
    "null": r"NULL",
    "neg": r"negative|out of range|is not|must be|not a rank|unknown",
    "min": r"negative|out of range|is not|must be|not a rank|unknown",
    "huge": r"out of range|past the end|too large|too many|exceed|multiple|not a rank|"
            r"more than|unknown",
    "range": r"out of range|unknown|is not|not a rank|invalid",
    "nproc": r"out of range|not a rank",
    "count": r"out of range",
    "outside": r"not inside|not returned|not a live|past the end",
    "freed": r"not inside|not returned|freed|not a live|past the end",
    "pastend": r"past the end",
    "garbage": r"not a live|not a valid|corrupt|not created|not a member|freed|not initialized",
    "zeroed": r"not a valid|corrupt|not created|freed|not a member",
    "destroyed": r"not a live",
    "nonmember": r"not a member",
    "unknown": r"unknown|is not",
    "small": r"smaller",
    "elem_neg": r"not a rank|out of range",
    "elem_range": r"not a rank|out of range",
    "elem_dup": r"twice",
    "neg_elem": r"not inside|past the end|negative",
    "huge_elem": r"not inside|past the end|too large",
    "neg0": r"negative", "negn": r"negative|at least 1",
    "huge0": r"past the end|too large|not inside|multiple",
    "hugen": r"past the end|too large|not inside",
    "src_arr_null": r"NULL", "dst_arr_null": r"NULL", "loc_elem_null": r"NULL",
    "rem_elem_null": r"NULL|not inside", "rem_elem_outside": r"not inside",
    "rem_elem_freed": r"not inside", "bytes_neg": r"negative", "bytes_huge": r"past the end|multiple",
    "len_neg": r"negative",
    "zero": r"every count is 0",
}
PHASE_REASON = r"not initialized"


# ---------------------------------------------------------------------------
def strip_header(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)
    text = re.sub(r"typedef\s+struct[^;{]*\{.*?\}[^;]*;", "", text, flags=re.S)
    text = re.sub(r"\b(typedef|enum)\b[^;{]*(\{[^}]*\})?[^;]*;", "", text, flags=re.S)
    text = text.replace('extern "C" {', "").replace("}", "")
    return text


def parse_param(p):
    p = " ".join(p.split())
    arr = p.endswith("[]")
    if arr:
        p = p[:-2].strip()
    m = re.match(r"(.*?)(\w+)$", p)
    ctype, name = m.group(1).strip(), m.group(2)
    ctype = ctype.replace(" *", "*").replace("* ", "*")
    if arr:
        ctype += "*"
    return ctype, name, arr


def parse_headers(incdir):
    funcs = []
    for h in HEADERS:
        text = strip_header(open(os.path.join(incdir, h)).read())
        for m in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(\w+)\s*\(([^()]*)\)\s*;", text):
            ret = " ".join(m.group(1).split())
            name = m.group(2)
            params = m.group(3).strip()
            plist = [] if params in ("", "void") else [parse_param(x) for x in params.split(",")]
            funcs.append({"name": name, "ret": ret.replace(" *", "*"), "params": plist,
                          "header": h})
    return funcs


def base_name(name):
    """ARMCI_X for PARMCI_X, armci_msg_x for parmci_msg_x."""
    if name.startswith("PARMCI_"):
        return name[1:]
    if name.startswith("parmci_"):
        return name[1:]
    return name


def kind_of(fname, pname, ctype):
    b = base_name(fname)
    for fre, pre, tre, kind in RULES:
        if re.match(fre, b) and re.fullmatch(pre, pname) and re.search(tre, ctype):
            return kind
    return None


def accepted_why(fname, pname, cls):
    b = base_name(fname)
    for fre, pre, cre, why in ACCEPT:
        if re.fullmatch(fre, b) and re.fullmatch(pre, pname) and re.fullmatch(cre, cls):
            return why
    return None


def matches(regex, name):
    return re.fullmatch(regex, base_name(name), flags=re.X) is not None


def c_getter(ctype):
    t = ctype.replace("const ", "")
    if "*" in t or t == "armcix_mutex_hdl_t":
        return "(%s)mx_ptr" % ctype
    if t in ("int", "armci_domain_t"):
        return "mx_int"
    if t in ("long", "armci_size_t"):
        return "mx_long"
    if t == "unsigned long":
        return "(unsigned long)mx_long"
    if t in ("float", "double"):
        return "(%s)mx_dbl" % t
    if t == "MPI_Comm":
        return "mx_comm"
    raise SystemExit("gen_matrix: no C getter for type '%s'" % ctype)


def ret_store(ret):
    t = ret.replace("const ", "")
    if t == "void":
        return ""
    if "*" in t or t == "armcix_mutex_hdl_t":
        return "mx_ret.p = (void *)"
    if t in ("int", "long"):
        return "mx_ret.l = "
    if t in ("float", "double"):
        return "mx_ret.d = "
    if t == "MPI_Comm":
        return "mx_ret.comm = "
    raise SystemExit("gen_matrix: no return slot for type '%s'" % ret)


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(incdir):
    funcs = parse_headers(incdir)
    errors = []
    out = []
    fn_rows = []
    cases = []
    kinds_used = set()
    classes_used = set()
    excluded = []
    no_class = []
    for fi, f in enumerate(funcs):
        name = f["name"]
        b = base_name(name)
        if b in EXCLUDED:
            excluded.append((name, EXCLUDED[b]))
            continue
        kinds = []
        for ctype, pname, _ in f["params"]:
            k = kind_of(name, pname, ctype)
            if k is None:
                errors.append("%s: no rule gives parameter '%s %s' a kind" % (name, ctype, pname))
                continue
            if k not in KINDS:
                errors.append("%s: kind %s of '%s' is not in KINDS" % (name, k, pname))
                continue
            kinds.append(k)
            kinds_used.add(k)
        if len(kinds) != len(f["params"]):
            continue
        fidx = len(fn_rows)
        coll = matches(COLLECTIVE, name)
        fixture = "NONE"
        for fre, fx in FIXTURES:
            if re.fullmatch(fre, b):
                fixture = fx
                break
        # the wrapper
        args = []
        for i, ((ctype, pname, _), k) in enumerate(zip(f["params"], kinds)):
            args.append("%s(c, %d, MK_%s)" % (c_getter(ctype), i, k))
        out.append("static void mx_fn_%d(const mx_case_t *c) /* %s */\n{\n    (void)c;\n"
                   "    %s%s(%s);\n}\n" % (fidx, name, ret_store(f["ret"]), name,
                                         ", ".join(args)))
        fn_rows.append("    {%s, %s, %d, MX_FIX_%s, mx_fn_%d}," %
                       (cstr(name), cstr(b), int(coll), fixture, fidx))
        params = [p[1] for p in f["params"]]

        def add(tag, muts, expect, why, reason, phase="MX_INIT", two=False):
            m = list(muts) + [(-1, "none")] * (2 - len(muts))
            for _, cl in muts:
                classes_used.add(cl)
            cases.append("    {%s, %d, %s, %s, {%d, %d}, {MC_%s, MC_%s}, MX_EXPECT_%s, %s, %s},"
                         % (cstr(name + "." + tag), fidx, phase, "1" if two else "0",
                            m[0][0], m[1][0], m[0][1], m[1][1], expect, cstr(why),
                            cstr(reason)))

        # the valid call
        bl = BASELINE.get(b)
        if bl is None:
            add("valid", [], "ACCEPTED", "the valid call", "")
        elif bl[0] != "skip":
            add("valid", [], bl[0].upper(), bl[1], "")
        # before init / after finalize
        ni = NOINIT.get(b)
        for phase, tag in (("MX_PREINIT", "preinit"), ("MX_POSTFINI", "postfini")):
            if ni is None:
                add(tag, [], "ERROR", "", PHASE_REASON, phase)
            elif ni[0] != "skip":
                add(tag, [], ni[0].upper(), ni[1], "", phase)
        # one bad argument at a time
        for i, (pname, k) in enumerate(zip(params, kinds)):
            if not KINDS[k]:
                no_class.append("%s.%s" % (name, pname))
            for cl in KINDS[k]:
                why = accepted_why(name, pname, cl)
                two = (k, cl) in NEEDS_TWO
                if why == "USER_ABORT":
                    add("%s.%s" % (pname, cl), [(i, cl)], "USER_ABORT",
                        "aborts with the user's message by design", "")
                elif why:
                    add("%s.%s" % (pname, cl), [(i, cl)], "ACCEPTED", why, "", two=two)
                else:
                    add("%s.%s" % (pname, cl), [(i, cl)], "ERROR", "", REASON.get(cl, "."),
                        two=two)
        # hand-listed combinations (on the function and its PARMCI_ twin)
        for ef, muts, expect, why in EXTRA:
            if ef != b:
                continue
            mm = []
            for pname, cl in muts:
                if pname not in params:
                    errors.append("EXTRA %s: no parameter %s" % (ef, pname))
                    continue
                mm.append((params.index(pname), cl))
            tag = "+".join("%s.%s" % (p, c) for p, c in muts)
            add(tag, mm, expect.upper(), why, REASON.get(muts[-1][1], ".") if
                expect == "error" else "")
    for ef, _, _, _ in EXTRA:
        if not any(base_name(f["name"]) == ef for f in funcs):
            errors.append("EXTRA names %s, which no header declares" % ef)
    if errors:
        raise SystemExit("gen_matrix: the headers have entry points or arguments the matrix "
                         "does not cover:\n  " + "\n  ".join(errors))
    hdr = ["/* Generated by tests/badinput/gen_matrix.py from the headers in include/: do not edit.",
           " * %d entry points (%d excluded: %s), %d cases." % (
               len(fn_rows), len(excluded), ", ".join(n for n, _ in excluded), len(cases)),
           " * Parameters with no bad value (any value is legal): %s. */" %
           (", ".join(no_class) or "none")]
    body = []
    body += hdr
    body.append("#define MX_NFUNCS %d" % len(fn_rows))
    body.append("#define MX_NCASES %d" % len(cases))
    body.append("#define MX_KINDS(X) " + " ".join("X(%s)" % k for k in sorted(kinds_used)))
    body.append("#define MX_CLASSES(X) X(none) " +
                " ".join("X(%s)" % c for c in sorted(classes_used)))
    body.append("#define MX_FIXTURES(X) X(NONE) " +
                " ".join("X(%s)" % fx for fx in sorted({fx for _, fx in FIXTURES})))
    body.append("#define MX_EXCLUDED \\")
    for n, why in excluded:
        body.append("    {%s, %s}, \\" % (cstr(n), cstr(why)))
    body.append("")
    body.append("#ifdef MX_TABLE")
    body += out
    body.append("static const mx_func_t mx_funcs[MX_NFUNCS] = {")
    body += fn_rows
    body.append("};")
    body.append("static const mx_case_t mx_cases[MX_NCASES] = {")
    body += cases
    body.append("};")
    body.append("#endif")
    return "\n".join(body) + "\n"


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--srcdir", default=os.path.join(here, "..", ".."))
    ap.add_argument("-o", dest="out", default=os.path.join(here, "matrix_table.h"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    text = generate(os.path.join(a.srcdir, "include"))
    if a.check:
        try:
            old = open(a.out).read()
        except OSError:
            old = ""
        if old != text:
            sys.stderr.write("gen_matrix: %s is out of date with include/*.h; run "
                             "tests/badinput/gen_matrix.py and commit the result\n" % a.out)
            return 1
        ncases = re.search(r"#define MX_NCASES (\d+)", text).group(1)
        print("gen_matrix: %s is up to date (%s cases)" % (a.out, ncases))
        return 0
    with open(a.out, "w") as fp:
        fp.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
