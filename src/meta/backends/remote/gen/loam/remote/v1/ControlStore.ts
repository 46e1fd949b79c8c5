// Original file: src/meta/backends/remote/loam_remote.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AckOutboxRequest as _loam_remote_v1_AckOutboxRequest, AckOutboxRequest__Output as _loam_remote_v1_AckOutboxRequest__Output } from '../../../loam/remote/v1/AckOutboxRequest.js';
import type { AddUsageRequest as _loam_remote_v1_AddUsageRequest, AddUsageRequest__Output as _loam_remote_v1_AddUsageRequest__Output } from '../../../loam/remote/v1/AddUsageRequest.js';
import type { ApiKeyInfo as _loam_remote_v1_ApiKeyInfo, ApiKeyInfo__Output as _loam_remote_v1_ApiKeyInfo__Output } from '../../../loam/remote/v1/ApiKeyInfo.js';
import type { ApiKeyPage as _loam_remote_v1_ApiKeyPage, ApiKeyPage__Output as _loam_remote_v1_ApiKeyPage__Output } from '../../../loam/remote/v1/ApiKeyPage.js';
import type { ApiKeyRecord as _loam_remote_v1_ApiKeyRecord, ApiKeyRecord__Output as _loam_remote_v1_ApiKeyRecord__Output } from '../../../loam/remote/v1/ApiKeyRecord.js';
import type { BindingRequest as _loam_remote_v1_BindingRequest, BindingRequest__Output as _loam_remote_v1_BindingRequest__Output } from '../../../loam/remote/v1/BindingRequest.js';
import type { BindingsRequest as _loam_remote_v1_BindingsRequest, BindingsRequest__Output as _loam_remote_v1_BindingsRequest__Output } from '../../../loam/remote/v1/BindingsRequest.js';
import type { ControlCapabilities as _loam_remote_v1_ControlCapabilities, ControlCapabilities__Output as _loam_remote_v1_ControlCapabilities__Output } from '../../../loam/remote/v1/ControlCapabilities.js';
import type { ControlChangeList as _loam_remote_v1_ControlChangeList, ControlChangeList__Output as _loam_remote_v1_ControlChangeList__Output } from '../../../loam/remote/v1/ControlChangeList.js';
import type { ControlChangesSinceRequest as _loam_remote_v1_ControlChangesSinceRequest, ControlChangesSinceRequest__Output as _loam_remote_v1_ControlChangesSinceRequest__Output } from '../../../loam/remote/v1/ControlChangesSinceRequest.js';
import type { CreateErasureRequest as _loam_remote_v1_CreateErasureRequest, CreateErasureRequest__Output as _loam_remote_v1_CreateErasureRequest__Output } from '../../../loam/remote/v1/CreateErasureRequest.js';
import type { CreateKeyRequest as _loam_remote_v1_CreateKeyRequest, CreateKeyRequest__Output as _loam_remote_v1_CreateKeyRequest__Output } from '../../../loam/remote/v1/CreateKeyRequest.js';
import type { CreateOrgRequest as _loam_remote_v1_CreateOrgRequest, CreateOrgRequest__Output as _loam_remote_v1_CreateOrgRequest__Output } from '../../../loam/remote/v1/CreateOrgRequest.js';
import type { DestroyErasureKeysRequest as _loam_remote_v1_DestroyErasureKeysRequest, DestroyErasureKeysRequest__Output as _loam_remote_v1_DestroyErasureKeysRequest__Output } from '../../../loam/remote/v1/DestroyErasureKeysRequest.js';
import type { DestroyedCount as _loam_remote_v1_DestroyedCount, DestroyedCount__Output as _loam_remote_v1_DestroyedCount__Output } from '../../../loam/remote/v1/DestroyedCount.js';
import type { DropNamespaceBindingsRequest as _loam_remote_v1_DropNamespaceBindingsRequest, DropNamespaceBindingsRequest__Output as _loam_remote_v1_DropNamespaceBindingsRequest__Output } from '../../../loam/remote/v1/DropNamespaceBindingsRequest.js';
import type { Empty as _loam_remote_v1_Empty, Empty__Output as _loam_remote_v1_Empty__Output } from '../../../loam/remote/v1/Empty.js';
import type { ErasureKeyList as _loam_remote_v1_ErasureKeyList, ErasureKeyList__Output as _loam_remote_v1_ErasureKeyList__Output } from '../../../loam/remote/v1/ErasureKeyList.js';
import type { ErasureKeysRequest as _loam_remote_v1_ErasureKeysRequest, ErasureKeysRequest__Output as _loam_remote_v1_ErasureKeysRequest__Output } from '../../../loam/remote/v1/ErasureKeysRequest.js';
import type { ErasurePage as _loam_remote_v1_ErasurePage, ErasurePage__Output as _loam_remote_v1_ErasurePage__Output } from '../../../loam/remote/v1/ErasurePage.js';
import type { ErasureRow as _loam_remote_v1_ErasureRow, ErasureRow__Output as _loam_remote_v1_ErasureRow__Output } from '../../../loam/remote/v1/ErasureRow.js';
import type { GetErasureRequest as _loam_remote_v1_GetErasureRequest, GetErasureRequest__Output as _loam_remote_v1_GetErasureRequest__Output } from '../../../loam/remote/v1/GetErasureRequest.js';
import type { GetKeyRequest as _loam_remote_v1_GetKeyRequest, GetKeyRequest__Output as _loam_remote_v1_GetKeyRequest__Output } from '../../../loam/remote/v1/GetKeyRequest.js';
import type { GetOrgRequest as _loam_remote_v1_GetOrgRequest, GetOrgRequest__Output as _loam_remote_v1_GetOrgRequest__Output } from '../../../loam/remote/v1/GetOrgRequest.js';
import type { HeartbeatRequest as _loam_remote_v1_HeartbeatRequest, HeartbeatRequest__Output as _loam_remote_v1_HeartbeatRequest__Output } from '../../../loam/remote/v1/HeartbeatRequest.js';
import type { JobPositionRequest as _loam_remote_v1_JobPositionRequest, JobPositionRequest__Output as _loam_remote_v1_JobPositionRequest__Output } from '../../../loam/remote/v1/JobPositionRequest.js';
import type { JobPositionValue as _loam_remote_v1_JobPositionValue, JobPositionValue__Output as _loam_remote_v1_JobPositionValue__Output } from '../../../loam/remote/v1/JobPositionValue.js';
import type { LeaveRequest as _loam_remote_v1_LeaveRequest, LeaveRequest__Output as _loam_remote_v1_LeaveRequest__Output } from '../../../loam/remote/v1/LeaveRequest.js';
import type { ListBindingsRequest as _loam_remote_v1_ListBindingsRequest, ListBindingsRequest__Output as _loam_remote_v1_ListBindingsRequest__Output } from '../../../loam/remote/v1/ListBindingsRequest.js';
import type { ListErasuresRequest as _loam_remote_v1_ListErasuresRequest, ListErasuresRequest__Output as _loam_remote_v1_ListErasuresRequest__Output } from '../../../loam/remote/v1/ListErasuresRequest.js';
import type { ListKeysRequest as _loam_remote_v1_ListKeysRequest, ListKeysRequest__Output as _loam_remote_v1_ListKeysRequest__Output } from '../../../loam/remote/v1/ListKeysRequest.js';
import type { ListOrgsRequest as _loam_remote_v1_ListOrgsRequest, ListOrgsRequest__Output as _loam_remote_v1_ListOrgsRequest__Output } from '../../../loam/remote/v1/ListOrgsRequest.js';
import type { MemberList as _loam_remote_v1_MemberList, MemberList__Output as _loam_remote_v1_MemberList__Output } from '../../../loam/remote/v1/MemberList.js';
import type { MembersRequest as _loam_remote_v1_MembersRequest, MembersRequest__Output as _loam_remote_v1_MembersRequest__Output } from '../../../loam/remote/v1/MembersRequest.js';
import type { Org as _loam_remote_v1_Org, Org__Output as _loam_remote_v1_Org__Output } from '../../../loam/remote/v1/Org.js';
import type { OrgPage as _loam_remote_v1_OrgPage, OrgPage__Output as _loam_remote_v1_OrgPage__Output } from '../../../loam/remote/v1/OrgPage.js';
import type { OutboxEntryList as _loam_remote_v1_OutboxEntryList, OutboxEntryList__Output as _loam_remote_v1_OutboxEntryList__Output } from '../../../loam/remote/v1/OutboxEntryList.js';
import type { OutboxRequest as _loam_remote_v1_OutboxRequest, OutboxRequest__Output as _loam_remote_v1_OutboxRequest__Output } from '../../../loam/remote/v1/OutboxRequest.js';
import type { PutErasureKeyRequest as _loam_remote_v1_PutErasureKeyRequest, PutErasureKeyRequest__Output as _loam_remote_v1_PutErasureKeyRequest__Output } from '../../../loam/remote/v1/PutErasureKeyRequest.js';
import type { PutUsageRequest as _loam_remote_v1_PutUsageRequest, PutUsageRequest__Output as _loam_remote_v1_PutUsageRequest__Output } from '../../../loam/remote/v1/PutUsageRequest.js';
import type { QuotaOverrideList as _loam_remote_v1_QuotaOverrideList, QuotaOverrideList__Output as _loam_remote_v1_QuotaOverrideList__Output } from '../../../loam/remote/v1/QuotaOverrideList.js';
import type { QuotasRequest as _loam_remote_v1_QuotasRequest, QuotasRequest__Output as _loam_remote_v1_QuotasRequest__Output } from '../../../loam/remote/v1/QuotasRequest.js';
import type { RevokeKeyRequest as _loam_remote_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _loam_remote_v1_RevokeKeyRequest__Output } from '../../../loam/remote/v1/RevokeKeyRequest.js';
import type { RoleBinding as _loam_remote_v1_RoleBinding, RoleBinding__Output as _loam_remote_v1_RoleBinding__Output } from '../../../loam/remote/v1/RoleBinding.js';
import type { RoleBindingList as _loam_remote_v1_RoleBindingList, RoleBindingList__Output as _loam_remote_v1_RoleBindingList__Output } from '../../../loam/remote/v1/RoleBindingList.js';
import type { RoleBindingPage as _loam_remote_v1_RoleBindingPage, RoleBindingPage__Output as _loam_remote_v1_RoleBindingPage__Output } from '../../../loam/remote/v1/RoleBindingPage.js';
import type { SaveJobPositionRequest as _loam_remote_v1_SaveJobPositionRequest, SaveJobPositionRequest__Output as _loam_remote_v1_SaveJobPositionRequest__Output } from '../../../loam/remote/v1/SaveJobPositionRequest.js';
import type { SetQuotaRequest as _loam_remote_v1_SetQuotaRequest, SetQuotaRequest__Output as _loam_remote_v1_SetQuotaRequest__Output } from '../../../loam/remote/v1/SetQuotaRequest.js';
import type { TouchKeysRequest as _loam_remote_v1_TouchKeysRequest, TouchKeysRequest__Output as _loam_remote_v1_TouchKeysRequest__Output } from '../../../loam/remote/v1/TouchKeysRequest.js';
import type { UpdateErasureRequest as _loam_remote_v1_UpdateErasureRequest, UpdateErasureRequest__Output as _loam_remote_v1_UpdateErasureRequest__Output } from '../../../loam/remote/v1/UpdateErasureRequest.js';
import type { UsageRequest as _loam_remote_v1_UsageRequest, UsageRequest__Output as _loam_remote_v1_UsageRequest__Output } from '../../../loam/remote/v1/UsageRequest.js';
import type { UsageRollupList as _loam_remote_v1_UsageRollupList, UsageRollupList__Output as _loam_remote_v1_UsageRollupList__Output } from '../../../loam/remote/v1/UsageRollupList.js';
import type { VersionValue as _loam_remote_v1_VersionValue, VersionValue__Output as _loam_remote_v1_VersionValue__Output } from '../../../loam/remote/v1/VersionValue.js';

export interface ControlStoreClient extends grpc.Client {
  AckOutbox(argument: _loam_remote_v1_AckOutboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  AckOutbox(argument: _loam_remote_v1_AckOutboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  AckOutbox(argument: _loam_remote_v1_AckOutboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  AckOutbox(argument: _loam_remote_v1_AckOutboxRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ackOutbox(argument: _loam_remote_v1_AckOutboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ackOutbox(argument: _loam_remote_v1_AckOutboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ackOutbox(argument: _loam_remote_v1_AckOutboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ackOutbox(argument: _loam_remote_v1_AckOutboxRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  AddUsage(argument: _loam_remote_v1_AddUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  AddUsage(argument: _loam_remote_v1_AddUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  AddUsage(argument: _loam_remote_v1_AddUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  AddUsage(argument: _loam_remote_v1_AddUsageRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  addUsage(argument: _loam_remote_v1_AddUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  addUsage(argument: _loam_remote_v1_AddUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  addUsage(argument: _loam_remote_v1_AddUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  addUsage(argument: _loam_remote_v1_AddUsageRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  Bindings(argument: _loam_remote_v1_BindingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  Bindings(argument: _loam_remote_v1_BindingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  Bindings(argument: _loam_remote_v1_BindingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  Bindings(argument: _loam_remote_v1_BindingsRequest, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  bindings(argument: _loam_remote_v1_BindingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  bindings(argument: _loam_remote_v1_BindingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  bindings(argument: _loam_remote_v1_BindingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  bindings(argument: _loam_remote_v1_BindingsRequest, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingList__Output>): grpc.ClientUnaryCall;
  
  Capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_ControlCapabilities__Output>): grpc.ClientUnaryCall;
  
  ChangesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  ChangesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  ChangesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  ChangesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ControlChangesSinceRequest, callback: grpc.requestCallback<_loam_remote_v1_ControlChangeList__Output>): grpc.ClientUnaryCall;
  
  ControlVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  ControlVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  ControlVersion(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  ControlVersion(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  controlVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  controlVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  controlVersion(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  controlVersion(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  
  CreateErasure(argument: _loam_remote_v1_CreateErasureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  CreateErasure(argument: _loam_remote_v1_CreateErasureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  CreateErasure(argument: _loam_remote_v1_CreateErasureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  CreateErasure(argument: _loam_remote_v1_CreateErasureRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  createErasure(argument: _loam_remote_v1_CreateErasureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  createErasure(argument: _loam_remote_v1_CreateErasureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  createErasure(argument: _loam_remote_v1_CreateErasureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  createErasure(argument: _loam_remote_v1_CreateErasureRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  
  CreateKey(argument: _loam_remote_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _loam_remote_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _loam_remote_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _loam_remote_v1_CreateKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  createKey(argument: _loam_remote_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  createKey(argument: _loam_remote_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  createKey(argument: _loam_remote_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  createKey(argument: _loam_remote_v1_CreateKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyInfo__Output>): grpc.ClientUnaryCall;
  
  CreateOrg(argument: _loam_remote_v1_CreateOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  CreateOrg(argument: _loam_remote_v1_CreateOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  CreateOrg(argument: _loam_remote_v1_CreateOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  CreateOrg(argument: _loam_remote_v1_CreateOrgRequest, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _loam_remote_v1_CreateOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _loam_remote_v1_CreateOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _loam_remote_v1_CreateOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _loam_remote_v1_CreateOrgRequest, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  
  DestroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  DestroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  DestroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  DestroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  destroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  destroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  destroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  destroyErasureKeys(argument: _loam_remote_v1_DestroyErasureKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_DestroyedCount__Output>): grpc.ClientUnaryCall;
  
  DropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespaceBindings(argument: _loam_remote_v1_DropNamespaceBindingsRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  ErasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  ErasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  ErasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  ErasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  erasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  erasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  erasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  erasureKeys(argument: _loam_remote_v1_ErasureKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureKeyList__Output>): grpc.ClientUnaryCall;
  
  GetErasure(argument: _loam_remote_v1_GetErasureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  GetErasure(argument: _loam_remote_v1_GetErasureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  GetErasure(argument: _loam_remote_v1_GetErasureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  GetErasure(argument: _loam_remote_v1_GetErasureRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  getErasure(argument: _loam_remote_v1_GetErasureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  getErasure(argument: _loam_remote_v1_GetErasureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  getErasure(argument: _loam_remote_v1_GetErasureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  getErasure(argument: _loam_remote_v1_GetErasureRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  
  GetKey(argument: _loam_remote_v1_GetKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _loam_remote_v1_GetKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _loam_remote_v1_GetKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _loam_remote_v1_GetKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  getKey(argument: _loam_remote_v1_GetKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  getKey(argument: _loam_remote_v1_GetKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  getKey(argument: _loam_remote_v1_GetKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  getKey(argument: _loam_remote_v1_GetKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyRecord__Output>): grpc.ClientUnaryCall;
  
  GetOrg(argument: _loam_remote_v1_GetOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  GetOrg(argument: _loam_remote_v1_GetOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  GetOrg(argument: _loam_remote_v1_GetOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  GetOrg(argument: _loam_remote_v1_GetOrgRequest, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  getOrg(argument: _loam_remote_v1_GetOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  getOrg(argument: _loam_remote_v1_GetOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  getOrg(argument: _loam_remote_v1_GetOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  getOrg(argument: _loam_remote_v1_GetOrgRequest, callback: grpc.requestCallback<_loam_remote_v1_Org__Output>): grpc.ClientUnaryCall;
  
  Grant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  Grant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  Grant(argument: _loam_remote_v1_BindingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  Grant(argument: _loam_remote_v1_BindingRequest, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  grant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  grant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  grant(argument: _loam_remote_v1_BindingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  grant(argument: _loam_remote_v1_BindingRequest, callback: grpc.requestCallback<_loam_remote_v1_RoleBinding__Output>): grpc.ClientUnaryCall;
  
  Heartbeat(argument: _loam_remote_v1_HeartbeatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Heartbeat(argument: _loam_remote_v1_HeartbeatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Heartbeat(argument: _loam_remote_v1_HeartbeatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Heartbeat(argument: _loam_remote_v1_HeartbeatRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  heartbeat(argument: _loam_remote_v1_HeartbeatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  heartbeat(argument: _loam_remote_v1_HeartbeatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  heartbeat(argument: _loam_remote_v1_HeartbeatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  heartbeat(argument: _loam_remote_v1_HeartbeatRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  Init(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Init(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Init(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Init(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  init(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  init(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  init(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  init(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  JobPosition(argument: _loam_remote_v1_JobPositionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  JobPosition(argument: _loam_remote_v1_JobPositionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  JobPosition(argument: _loam_remote_v1_JobPositionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  JobPosition(argument: _loam_remote_v1_JobPositionRequest, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  jobPosition(argument: _loam_remote_v1_JobPositionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  jobPosition(argument: _loam_remote_v1_JobPositionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  jobPosition(argument: _loam_remote_v1_JobPositionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  jobPosition(argument: _loam_remote_v1_JobPositionRequest, callback: grpc.requestCallback<_loam_remote_v1_JobPositionValue__Output>): grpc.ClientUnaryCall;
  
  Leave(argument: _loam_remote_v1_LeaveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Leave(argument: _loam_remote_v1_LeaveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Leave(argument: _loam_remote_v1_LeaveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  Leave(argument: _loam_remote_v1_LeaveRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  leave(argument: _loam_remote_v1_LeaveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  leave(argument: _loam_remote_v1_LeaveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  leave(argument: _loam_remote_v1_LeaveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  leave(argument: _loam_remote_v1_LeaveRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  ListBindings(argument: _loam_remote_v1_ListBindingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  ListBindings(argument: _loam_remote_v1_ListBindingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  ListBindings(argument: _loam_remote_v1_ListBindingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  ListBindings(argument: _loam_remote_v1_ListBindingsRequest, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  listBindings(argument: _loam_remote_v1_ListBindingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  listBindings(argument: _loam_remote_v1_ListBindingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  listBindings(argument: _loam_remote_v1_ListBindingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  listBindings(argument: _loam_remote_v1_ListBindingsRequest, callback: grpc.requestCallback<_loam_remote_v1_RoleBindingPage__Output>): grpc.ClientUnaryCall;
  
  ListErasures(argument: _loam_remote_v1_ListErasuresRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  ListErasures(argument: _loam_remote_v1_ListErasuresRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  ListErasures(argument: _loam_remote_v1_ListErasuresRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  ListErasures(argument: _loam_remote_v1_ListErasuresRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  listErasures(argument: _loam_remote_v1_ListErasuresRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  listErasures(argument: _loam_remote_v1_ListErasuresRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  listErasures(argument: _loam_remote_v1_ListErasuresRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  listErasures(argument: _loam_remote_v1_ListErasuresRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasurePage__Output>): grpc.ClientUnaryCall;
  
  ListKeys(argument: _loam_remote_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _loam_remote_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _loam_remote_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _loam_remote_v1_ListKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _loam_remote_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _loam_remote_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _loam_remote_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _loam_remote_v1_ListKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_ApiKeyPage__Output>): grpc.ClientUnaryCall;
  
  ListOrgs(argument: _loam_remote_v1_ListOrgsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  ListOrgs(argument: _loam_remote_v1_ListOrgsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  ListOrgs(argument: _loam_remote_v1_ListOrgsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  ListOrgs(argument: _loam_remote_v1_ListOrgsRequest, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _loam_remote_v1_ListOrgsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _loam_remote_v1_ListOrgsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _loam_remote_v1_ListOrgsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _loam_remote_v1_ListOrgsRequest, callback: grpc.requestCallback<_loam_remote_v1_OrgPage__Output>): grpc.ClientUnaryCall;
  
  Members(argument: _loam_remote_v1_MembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  Members(argument: _loam_remote_v1_MembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  Members(argument: _loam_remote_v1_MembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  Members(argument: _loam_remote_v1_MembersRequest, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  members(argument: _loam_remote_v1_MembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  members(argument: _loam_remote_v1_MembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  members(argument: _loam_remote_v1_MembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  members(argument: _loam_remote_v1_MembersRequest, callback: grpc.requestCallback<_loam_remote_v1_MemberList__Output>): grpc.ClientUnaryCall;
  
  Outbox(argument: _loam_remote_v1_OutboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  Outbox(argument: _loam_remote_v1_OutboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  Outbox(argument: _loam_remote_v1_OutboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  Outbox(argument: _loam_remote_v1_OutboxRequest, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  outbox(argument: _loam_remote_v1_OutboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  outbox(argument: _loam_remote_v1_OutboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  outbox(argument: _loam_remote_v1_OutboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  outbox(argument: _loam_remote_v1_OutboxRequest, callback: grpc.requestCallback<_loam_remote_v1_OutboxEntryList__Output>): grpc.ClientUnaryCall;
  
  PutErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  PutErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  PutErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  PutErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putErasureKey(argument: _loam_remote_v1_PutErasureKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  PutUsage(argument: _loam_remote_v1_PutUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  PutUsage(argument: _loam_remote_v1_PutUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  PutUsage(argument: _loam_remote_v1_PutUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  PutUsage(argument: _loam_remote_v1_PutUsageRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putUsage(argument: _loam_remote_v1_PutUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putUsage(argument: _loam_remote_v1_PutUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putUsage(argument: _loam_remote_v1_PutUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  putUsage(argument: _loam_remote_v1_PutUsageRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  Quotas(argument: _loam_remote_v1_QuotasRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  Quotas(argument: _loam_remote_v1_QuotasRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  Quotas(argument: _loam_remote_v1_QuotasRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  Quotas(argument: _loam_remote_v1_QuotasRequest, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  quotas(argument: _loam_remote_v1_QuotasRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  quotas(argument: _loam_remote_v1_QuotasRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  quotas(argument: _loam_remote_v1_QuotasRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  quotas(argument: _loam_remote_v1_QuotasRequest, callback: grpc.requestCallback<_loam_remote_v1_QuotaOverrideList__Output>): grpc.ClientUnaryCall;
  
  RevokeGrant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeGrant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeGrant(argument: _loam_remote_v1_BindingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeGrant(argument: _loam_remote_v1_BindingRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeGrant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeGrant(argument: _loam_remote_v1_BindingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeGrant(argument: _loam_remote_v1_BindingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeGrant(argument: _loam_remote_v1_BindingRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  RevokeKey(argument: _loam_remote_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _loam_remote_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _loam_remote_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _loam_remote_v1_RevokeKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _loam_remote_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _loam_remote_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _loam_remote_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _loam_remote_v1_RevokeKeyRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  SaveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  SaveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  SaveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  SaveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  saveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  saveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  saveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  saveJobPosition(argument: _loam_remote_v1_SaveJobPositionRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  SetQuota(argument: _loam_remote_v1_SetQuotaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  SetQuota(argument: _loam_remote_v1_SetQuotaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  SetQuota(argument: _loam_remote_v1_SetQuotaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  SetQuota(argument: _loam_remote_v1_SetQuotaRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  setQuota(argument: _loam_remote_v1_SetQuotaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  setQuota(argument: _loam_remote_v1_SetQuotaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  setQuota(argument: _loam_remote_v1_SetQuotaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  setQuota(argument: _loam_remote_v1_SetQuotaRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  TouchKeys(argument: _loam_remote_v1_TouchKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  TouchKeys(argument: _loam_remote_v1_TouchKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  TouchKeys(argument: _loam_remote_v1_TouchKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  TouchKeys(argument: _loam_remote_v1_TouchKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  touchKeys(argument: _loam_remote_v1_TouchKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  touchKeys(argument: _loam_remote_v1_TouchKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  touchKeys(argument: _loam_remote_v1_TouchKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  touchKeys(argument: _loam_remote_v1_TouchKeysRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  UpdateErasure(argument: _loam_remote_v1_UpdateErasureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  UpdateErasure(argument: _loam_remote_v1_UpdateErasureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  UpdateErasure(argument: _loam_remote_v1_UpdateErasureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  UpdateErasure(argument: _loam_remote_v1_UpdateErasureRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  updateErasure(argument: _loam_remote_v1_UpdateErasureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  updateErasure(argument: _loam_remote_v1_UpdateErasureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  updateErasure(argument: _loam_remote_v1_UpdateErasureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  updateErasure(argument: _loam_remote_v1_UpdateErasureRequest, callback: grpc.requestCallback<_loam_remote_v1_ErasureRow__Output>): grpc.ClientUnaryCall;
  
  Usage(argument: _loam_remote_v1_UsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  Usage(argument: _loam_remote_v1_UsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  Usage(argument: _loam_remote_v1_UsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  Usage(argument: _loam_remote_v1_UsageRequest, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  usage(argument: _loam_remote_v1_UsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  usage(argument: _loam_remote_v1_UsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  usage(argument: _loam_remote_v1_UsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  usage(argument: _loam_remote_v1_UsageRequest, callback: grpc.requestCallback<_loam_remote_v1_UsageRollupList__Output>): grpc.ClientUnaryCall;
  
}

export interface ControlStoreHandlers extends grpc.UntypedServiceImplementation {
  AckOutbox: grpc.handleUnaryCall<_loam_remote_v1_AckOutboxRequest__Output, _loam_remote_v1_Empty>;
  
  AddUsage: grpc.handleUnaryCall<_loam_remote_v1_AddUsageRequest__Output, _loam_remote_v1_Empty>;
  
  Bindings: grpc.handleUnaryCall<_loam_remote_v1_BindingsRequest__Output, _loam_remote_v1_RoleBindingList>;
  
  Capabilities: grpc.handleUnaryCall<_loam_remote_v1_Empty__Output, _loam_remote_v1_ControlCapabilities>;
  
  ChangesSince: grpc.handleUnaryCall<_loam_remote_v1_ControlChangesSinceRequest__Output, _loam_remote_v1_ControlChangeList>;
  
  ControlVersion: grpc.handleUnaryCall<_loam_remote_v1_Empty__Output, _loam_remote_v1_VersionValue>;
  
  CreateErasure: grpc.handleUnaryCall<_loam_remote_v1_CreateErasureRequest__Output, _loam_remote_v1_ErasureRow>;
  
  CreateKey: grpc.handleUnaryCall<_loam_remote_v1_CreateKeyRequest__Output, _loam_remote_v1_ApiKeyInfo>;
  
  CreateOrg: grpc.handleUnaryCall<_loam_remote_v1_CreateOrgRequest__Output, _loam_remote_v1_Org>;
  
  DestroyErasureKeys: grpc.handleUnaryCall<_loam_remote_v1_DestroyErasureKeysRequest__Output, _loam_remote_v1_DestroyedCount>;
  
  DropNamespaceBindings: grpc.handleUnaryCall<_loam_remote_v1_DropNamespaceBindingsRequest__Output, _loam_remote_v1_Empty>;
  
  ErasureKeys: grpc.handleUnaryCall<_loam_remote_v1_ErasureKeysRequest__Output, _loam_remote_v1_ErasureKeyList>;
  
  GetErasure: grpc.handleUnaryCall<_loam_remote_v1_GetErasureRequest__Output, _loam_remote_v1_ErasureRow>;
  
  GetKey: grpc.handleUnaryCall<_loam_remote_v1_GetKeyRequest__Output, _loam_remote_v1_ApiKeyRecord>;
  
  GetOrg: grpc.handleUnaryCall<_loam_remote_v1_GetOrgRequest__Output, _loam_remote_v1_Org>;
  
  Grant: grpc.handleUnaryCall<_loam_remote_v1_BindingRequest__Output, _loam_remote_v1_RoleBinding>;
  
  Heartbeat: grpc.handleUnaryCall<_loam_remote_v1_HeartbeatRequest__Output, _loam_remote_v1_Empty>;
  
  Init: grpc.handleUnaryCall<_loam_remote_v1_Empty__Output, _loam_remote_v1_Empty>;
  
  JobPosition: grpc.handleUnaryCall<_loam_remote_v1_JobPositionRequest__Output, _loam_remote_v1_JobPositionValue>;
  
  Leave: grpc.handleUnaryCall<_loam_remote_v1_LeaveRequest__Output, _loam_remote_v1_Empty>;
  
  ListBindings: grpc.handleUnaryCall<_loam_remote_v1_ListBindingsRequest__Output, _loam_remote_v1_RoleBindingPage>;
  
  ListErasures: grpc.handleUnaryCall<_loam_remote_v1_ListErasuresRequest__Output, _loam_remote_v1_ErasurePage>;
  
  ListKeys: grpc.handleUnaryCall<_loam_remote_v1_ListKeysRequest__Output, _loam_remote_v1_ApiKeyPage>;
  
  ListOrgs: grpc.handleUnaryCall<_loam_remote_v1_ListOrgsRequest__Output, _loam_remote_v1_OrgPage>;
  
  Members: grpc.handleUnaryCall<_loam_remote_v1_MembersRequest__Output, _loam_remote_v1_MemberList>;
  
  Outbox: grpc.handleUnaryCall<_loam_remote_v1_OutboxRequest__Output, _loam_remote_v1_OutboxEntryList>;
  
  PutErasureKey: grpc.handleUnaryCall<_loam_remote_v1_PutErasureKeyRequest__Output, _loam_remote_v1_Empty>;
  
  PutUsage: grpc.handleUnaryCall<_loam_remote_v1_PutUsageRequest__Output, _loam_remote_v1_Empty>;
  
  Quotas: grpc.handleUnaryCall<_loam_remote_v1_QuotasRequest__Output, _loam_remote_v1_QuotaOverrideList>;
  
  RevokeGrant: grpc.handleUnaryCall<_loam_remote_v1_BindingRequest__Output, _loam_remote_v1_Empty>;
  
  RevokeKey: grpc.handleUnaryCall<_loam_remote_v1_RevokeKeyRequest__Output, _loam_remote_v1_Empty>;
  
  SaveJobPosition: grpc.handleUnaryCall<_loam_remote_v1_SaveJobPositionRequest__Output, _loam_remote_v1_Empty>;
  
  SetQuota: grpc.handleUnaryCall<_loam_remote_v1_SetQuotaRequest__Output, _loam_remote_v1_Empty>;
  
  TouchKeys: grpc.handleUnaryCall<_loam_remote_v1_TouchKeysRequest__Output, _loam_remote_v1_Empty>;
  
  UpdateErasure: grpc.handleUnaryCall<_loam_remote_v1_UpdateErasureRequest__Output, _loam_remote_v1_ErasureRow>;
  
  Usage: grpc.handleUnaryCall<_loam_remote_v1_UsageRequest__Output, _loam_remote_v1_UsageRollupList>;
  
}

export interface ControlStoreDefinition extends grpc.ServiceDefinition {
  AckOutbox: MethodDefinition<_loam_remote_v1_AckOutboxRequest, _loam_remote_v1_Empty, _loam_remote_v1_AckOutboxRequest__Output, _loam_remote_v1_Empty__Output>
  AddUsage: MethodDefinition<_loam_remote_v1_AddUsageRequest, _loam_remote_v1_Empty, _loam_remote_v1_AddUsageRequest__Output, _loam_remote_v1_Empty__Output>
  Bindings: MethodDefinition<_loam_remote_v1_BindingsRequest, _loam_remote_v1_RoleBindingList, _loam_remote_v1_BindingsRequest__Output, _loam_remote_v1_RoleBindingList__Output>
  Capabilities: MethodDefinition<_loam_remote_v1_Empty, _loam_remote_v1_ControlCapabilities, _loam_remote_v1_Empty__Output, _loam_remote_v1_ControlCapabilities__Output>
  ChangesSince: MethodDefinition<_loam_remote_v1_ControlChangesSinceRequest, _loam_remote_v1_ControlChangeList, _loam_remote_v1_ControlChangesSinceRequest__Output, _loam_remote_v1_ControlChangeList__Output>
  ControlVersion: MethodDefinition<_loam_remote_v1_Empty, _loam_remote_v1_VersionValue, _loam_remote_v1_Empty__Output, _loam_remote_v1_VersionValue__Output>
  CreateErasure: MethodDefinition<_loam_remote_v1_CreateErasureRequest, _loam_remote_v1_ErasureRow, _loam_remote_v1_CreateErasureRequest__Output, _loam_remote_v1_ErasureRow__Output>
  CreateKey: MethodDefinition<_loam_remote_v1_CreateKeyRequest, _loam_remote_v1_ApiKeyInfo, _loam_remote_v1_CreateKeyRequest__Output, _loam_remote_v1_ApiKeyInfo__Output>
  CreateOrg: MethodDefinition<_loam_remote_v1_CreateOrgRequest, _loam_remote_v1_Org, _loam_remote_v1_CreateOrgRequest__Output, _loam_remote_v1_Org__Output>
  DestroyErasureKeys: MethodDefinition<_loam_remote_v1_DestroyErasureKeysRequest, _loam_remote_v1_DestroyedCount, _loam_remote_v1_DestroyErasureKeysRequest__Output, _loam_remote_v1_DestroyedCount__Output>
  DropNamespaceBindings: MethodDefinition<_loam_remote_v1_DropNamespaceBindingsRequest, _loam_remote_v1_Empty, _loam_remote_v1_DropNamespaceBindingsRequest__Output, _loam_remote_v1_Empty__Output>
  ErasureKeys: MethodDefinition<_loam_remote_v1_ErasureKeysRequest, _loam_remote_v1_ErasureKeyList, _loam_remote_v1_ErasureKeysRequest__Output, _loam_remote_v1_ErasureKeyList__Output>
  GetErasure: MethodDefinition<_loam_remote_v1_GetErasureRequest, _loam_remote_v1_ErasureRow, _loam_remote_v1_GetErasureRequest__Output, _loam_remote_v1_ErasureRow__Output>
  GetKey: MethodDefinition<_loam_remote_v1_GetKeyRequest, _loam_remote_v1_ApiKeyRecord, _loam_remote_v1_GetKeyRequest__Output, _loam_remote_v1_ApiKeyRecord__Output>
  GetOrg: MethodDefinition<_loam_remote_v1_GetOrgRequest, _loam_remote_v1_Org, _loam_remote_v1_GetOrgRequest__Output, _loam_remote_v1_Org__Output>
  Grant: MethodDefinition<_loam_remote_v1_BindingRequest, _loam_remote_v1_RoleBinding, _loam_remote_v1_BindingRequest__Output, _loam_remote_v1_RoleBinding__Output>
  Heartbeat: MethodDefinition<_loam_remote_v1_HeartbeatRequest, _loam_remote_v1_Empty, _loam_remote_v1_HeartbeatRequest__Output, _loam_remote_v1_Empty__Output>
  Init: MethodDefinition<_loam_remote_v1_Empty, _loam_remote_v1_Empty, _loam_remote_v1_Empty__Output, _loam_remote_v1_Empty__Output>
  JobPosition: MethodDefinition<_loam_remote_v1_JobPositionRequest, _loam_remote_v1_JobPositionValue, _loam_remote_v1_JobPositionRequest__Output, _loam_remote_v1_JobPositionValue__Output>
  Leave: MethodDefinition<_loam_remote_v1_LeaveRequest, _loam_remote_v1_Empty, _loam_remote_v1_LeaveRequest__Output, _loam_remote_v1_Empty__Output>
  ListBindings: MethodDefinition<_loam_remote_v1_ListBindingsRequest, _loam_remote_v1_RoleBindingPage, _loam_remote_v1_ListBindingsRequest__Output, _loam_remote_v1_RoleBindingPage__Output>
  ListErasures: MethodDefinition<_loam_remote_v1_ListErasuresRequest, _loam_remote_v1_ErasurePage, _loam_remote_v1_ListErasuresRequest__Output, _loam_remote_v1_ErasurePage__Output>
  ListKeys: MethodDefinition<_loam_remote_v1_ListKeysRequest, _loam_remote_v1_ApiKeyPage, _loam_remote_v1_ListKeysRequest__Output, _loam_remote_v1_ApiKeyPage__Output>
  ListOrgs: MethodDefinition<_loam_remote_v1_ListOrgsRequest, _loam_remote_v1_OrgPage, _loam_remote_v1_ListOrgsRequest__Output, _loam_remote_v1_OrgPage__Output>
  Members: MethodDefinition<_loam_remote_v1_MembersRequest, _loam_remote_v1_MemberList, _loam_remote_v1_MembersRequest__Output, _loam_remote_v1_MemberList__Output>
  Outbox: MethodDefinition<_loam_remote_v1_OutboxRequest, _loam_remote_v1_OutboxEntryList, _loam_remote_v1_OutboxRequest__Output, _loam_remote_v1_OutboxEntryList__Output>
  PutErasureKey: MethodDefinition<_loam_remote_v1_PutErasureKeyRequest, _loam_remote_v1_Empty, _loam_remote_v1_PutErasureKeyRequest__Output, _loam_remote_v1_Empty__Output>
  PutUsage: MethodDefinition<_loam_remote_v1_PutUsageRequest, _loam_remote_v1_Empty, _loam_remote_v1_PutUsageRequest__Output, _loam_remote_v1_Empty__Output>
  Quotas: MethodDefinition<_loam_remote_v1_QuotasRequest, _loam_remote_v1_QuotaOverrideList, _loam_remote_v1_QuotasRequest__Output, _loam_remote_v1_QuotaOverrideList__Output>
  RevokeGrant: MethodDefinition<_loam_remote_v1_BindingRequest, _loam_remote_v1_Empty, _loam_remote_v1_BindingRequest__Output, _loam_remote_v1_Empty__Output>
  RevokeKey: MethodDefinition<_loam_remote_v1_RevokeKeyRequest, _loam_remote_v1_Empty, _loam_remote_v1_RevokeKeyRequest__Output, _loam_remote_v1_Empty__Output>
  SaveJobPosition: MethodDefinition<_loam_remote_v1_SaveJobPositionRequest, _loam_remote_v1_Empty, _loam_remote_v1_SaveJobPositionRequest__Output, _loam_remote_v1_Empty__Output>
  SetQuota: MethodDefinition<_loam_remote_v1_SetQuotaRequest, _loam_remote_v1_Empty, _loam_remote_v1_SetQuotaRequest__Output, _loam_remote_v1_Empty__Output>
  TouchKeys: MethodDefinition<_loam_remote_v1_TouchKeysRequest, _loam_remote_v1_Empty, _loam_remote_v1_TouchKeysRequest__Output, _loam_remote_v1_Empty__Output>
  UpdateErasure: MethodDefinition<_loam_remote_v1_UpdateErasureRequest, _loam_remote_v1_ErasureRow, _loam_remote_v1_UpdateErasureRequest__Output, _loam_remote_v1_ErasureRow__Output>
  Usage: MethodDefinition<_loam_remote_v1_UsageRequest, _loam_remote_v1_UsageRollupList, _loam_remote_v1_UsageRequest__Output, _loam_remote_v1_UsageRollupList__Output>
}
